/**
 * The writer thread of the SQLite logs of this process: it owns the connections that append, so
 * the fsync of each group commit (synchronous=FULL) blocks this thread, not the main event loop.
 * One thread serves every store the process opens (each with its own connection), because starting
 * a thread costs far more than a commit. Requests are answered in the order they arrive, except a
 * close, answered once the connection's checkpointer thread has stopped.
 */
import type Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import { parentPort, type MessagePort } from 'node:worker_threads';
import { logWriter, type LogWriter } from './sqlite-batch.js';
import { checkpointInBackground, type BackgroundCheckpointer } from '../sqlite/background-checkpointer.js';
import { openLogConnection } from './sqlite-connection.js';
import type { WriterReply, WriterRequest } from './sqlite-writer.js';

const port = parentPort!;
const connections = new Map<
  number,
  { db: Database.Database; writer: LogWriter; filename: string; checkpointer: BackgroundCheckpointer }
>();
/** Told of every commit, by file name: the guests of this thread (see hostOnWriterThread). */
const commits = new EventEmitter().setMaxListeners(0);

interface Guest {
  hostOnWriterThread(setup: unknown, port: MessagePort, onCommit: (listener: () => void) => () => void): void;
}

function host(filename: string, module: string, setup: unknown, guestPort: MessagePort) {
  const onCommit = (listener: () => void) => {
    commits.on(filename, listener);
    return () => void commits.off(filename, listener);
  };
  import(module).then(
    (guest: Guest) => guest.hostOnWriterThread(setup, guestPort, onCommit),
    (error: Error) => {
      guestPort.postMessage({ kind: 'failed', error: error.message });
      guestPort.close();
    },
  );
}

function handle(request: WriterRequest): WriterReply | Promise<WriterReply> {
  if (request.kind === 'open') {
    const db = openLogConnection(request.filename);
    // The log's checkpoints off this thread: SQLite's own would copy the WAL and fsync the file
    // inside the group commit that crosses its limit, and every command of that batch would wait.
    let checkpointer: BackgroundCheckpointer;
    try {
      checkpointer = checkpointInBackground(db, request.filename);
    } catch (error) {
      db.close();
      throw error;
    }
    connections.set(request.connection, { db, writer: logWriter(db), filename: request.filename, checkpointer });
    return { id: request.id, outcomes: [] };
  }
  if (request.kind === 'host') {
    host(request.filename, request.module, request.setup, request.port);
    return { id: request.id, outcomes: [] };
  }
  const connection = connections.get(request.connection);
  if (!connection) throw new Error('the writer connection is not open');
  if (request.kind === 'append') {
    const outcomes = connection.writer.appendBatch(request.batch, request.createdAt);
    // After the reply (posted by the caller): guests' listeners only schedule their work.
    if (outcomes.some((outcome) => 'ok' in outcome)) queueMicrotask(() => commits.emit(connection.filename));
    return { id: request.id, outcomes };
  }
  if (request.kind === 'retention') {
    connection.writer.setRetention(request.stream, request.retention);
    return { id: request.id, outcomes: [] };
  }
  connections.delete(request.connection);
  // The checkpointer's connection is closed before the writer's, as background-checkpointer.ts asks.
  return connection.checkpointer.stop().then(() => {
    connection.db.close();
    return { id: request.id, outcomes: [] };
  });
}

/** The SQLite error code travels with the message: it is how a damaged file is told from an outage. */
const failed = (request: WriterRequest, error: unknown): WriterReply => {
  const code = (error as { code?: unknown }).code;
  return { id: request.id, error: (error as Error).message, ...(typeof code === 'string' ? { code } : {}) };
};

port.on('message', (request: WriterRequest) => {
  let reply: WriterReply | Promise<WriterReply>;
  try {
    reply = handle(request);
  } catch (error) {
    reply = failed(request, error);
  }
  if (reply instanceof Promise)
    reply.then(
      (answer) => port.postMessage(answer),
      (error) => port.postMessage(failed(request, error)),
    );
  else port.postMessage(reply);
});
