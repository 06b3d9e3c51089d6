/**
 * A MongoDB stand-in for tests: a TCP server on 127.0.0.1 that speaks enough of the wire protocol
 * for the official driver to use it as a standalone server, keeping data in memory.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { runCommand } from './commands.js';
import { StandInStorage } from './storage.js';
import { TTL_MONITOR_INTERVAL_MS, startTtlMonitor, type StandInTimers } from './ttl-monitor.js';
import { MessageFramer, decodeRequest, encodeReply } from './wire.js';

export interface MongoStandIn {
  /** A mongodb:// URL for the driver, with a short server selection timeout. */
  url: string;
  stop(): Promise<void>;
}

export interface MongoStandInOptions {
  /** The server's clock, which TTL indexes are judged by (default: the real clock). */
  now?: () => Date;
  /** Rounds of the TTL monitor (default every 60 s, as on a server). */
  ttlMonitorIntervalMs?: number;
  /** Timers of the TTL monitor (default: real, unref'd timers); tests in virtual time inject theirs. */
  timers?: StandInTimers;
}

const unrefTimers: StandInTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export async function startMongoStandIn(options: MongoStandInOptions = {}): Promise<MongoStandIn> {
  const storage = new StandInStorage();
  const ttlMonitor = startTtlMonitor(storage, {
    now: options.now ?? (() => new Date()),
    intervalMs: options.ttlMonitorIntervalMs ?? TTL_MONITOR_INTERVAL_MS,
    timers: options.timers ?? unrefTimers,
  });
  const sockets = new Set<Socket>();
  let nextConnectionId = 1;

  const server = createServer((socket) => {
    sockets.add(socket);
    const connectionId = nextConnectionId++;
    const framer = new MessageFramer();
    socket.on('close', () => sockets.delete(socket));
    // A client going away mid-write is normal when it closes its pool.
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk) => {
      try {
        for (const message of framer.push(chunk)) {
          const request = decodeRequest(message);
          const reply = runCommand(request.command, { storage, database: request.database, connectionId });
          if (!request.expectsNoReply) socket.write(encodeReply(request, reply));
        }
      } catch {
        // Garbage on the wire: a real server closes the connection too.
        socket.destroy();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `mongodb://127.0.0.1:${port}/?directConnection=true&serverSelectionTimeoutMS=2000`,
    stop: async () => {
      ttlMonitor.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
