/**
 * A protocol stand-in as a process of its own, so several platform processes can share one:
 * `node --import tsx test/support/standin-main.ts esdb|mongo` listens on a random loopback port
 * and prints one line, `{"kind":…,"url":…}`. It exits when its stdin closes (the parent that
 * spawned it is gone, even after a kill -9 of that parent) or on SIGTERM.
 */
import { startEventStoreStandIn } from './esdb-standin/server.js';
import { startMongoStandIn } from './mongo-standin/index.js';

export type StandInKind = 'esdb' | 'mongo';

async function start(kind: string): Promise<{ url: string; stop: () => Promise<void> }> {
  if (kind === 'esdb') {
    const standIn = await startEventStoreStandIn();
    return { url: standIn.connectionString, stop: standIn.stop };
  }
  if (kind === 'mongo') return startMongoStandIn();
  throw new Error(`unknown stand-in "${kind}": expected esdb or mongo`);
}

async function main() {
  const kind = process.argv[2] ?? '';
  const standIn = await start(kind);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await standIn.stop().catch(() => {});
    process.exit(0);
  };
  process.stdin.on('end', () => void stop());
  process.stdin.on('close', () => void stop());
  process.stdin.resume();
  process.on('SIGTERM', () => void stop());
  process.stdout.write(`${JSON.stringify({ kind, url: standIn.url })}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
