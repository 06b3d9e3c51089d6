/**
 * The writer thread of the SQLite logs of this process: it owns the connections that append, so
 * the fsync of each group commit (synchronous=FULL) blocks this thread, not the main event loop.
 * One thread serves every store the process opens (each with its own connection), because starting
 * a thread costs far more than a commit. Requests are answered in the order they arrive.
 */
import type Database from 'better-sqlite3';
import { parentPort, type MessagePort } from 'node:worker_threads';
import { logWriter, type LogWriter } from './sqlite-batch.js';
import { openLogConnection } from './sqlite-connection.js';
import type { WriterReply, WriterRequest } from './sqlite-writer.js';

const port = parentPort!;
const connections = new Map<number, { db: Database.Database; writer: LogWriter; filename: string }>();
/** Ports told of every commit to their file (the projection thread's, see commitNotices). */
const watchers = new Set<{ filename: string; port: MessagePort }>();

function noticeCommit(filename: string) {
  for (const watcher of watchers) if (watcher.filename === filename) watcher.port.postMessage(0);
}

function handle(request: WriterRequest): WriterReply {
  if (request.kind === 'open') {
    const db = openLogConnection(request.filename);
    connections.set(request.connection, { db, writer: logWriter(db), filename: request.filename });
    return { id: request.id, outcomes: [] };
  }
  if (request.kind === 'watch') {
    const watcher = { filename: request.filename, port: request.port };
    watchers.add(watcher);
    request.port.on('close', () => watchers.delete(watcher));
    // Notices must not keep this thread alive on their own.
    request.port.unref();
    return { id: request.id, outcomes: [] };
  }
  const connection = connections.get(request.connection);
  if (!connection) throw new Error('the writer connection is not open');
  if (request.kind === 'append') {
    const outcomes = connection.writer.appendBatch(request.batch, request.createdAt);
    // Before the reply: the projection thread starts reading while the main thread settles.
    if (outcomes.some((outcome) => 'ok' in outcome)) noticeCommit(connection.filename);
    return { id: request.id, outcomes };
  }
  if (request.kind === 'retention') connection.writer.setRetention(request.stream, request.retention);
  else {
    connections.delete(request.connection);
    connection.db.close();
  }
  return { id: request.id, outcomes: [] };
}

port.on('message', (request: WriterRequest) => {
  let reply: WriterReply;
  try {
    reply = handle(request);
  } catch (error) {
    reply = { id: request.id, error: (error as Error).message };
  }
  port.postMessage(reply);
});
