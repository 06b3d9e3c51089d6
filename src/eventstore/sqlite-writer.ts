/**
 * The main thread's handle on a log's writer connection. For a file, the connection lives in the
 * process's writer thread (sqlite-writer-worker.ts), so a commit's fsync no longer stalls HTTP,
 * projections and timers; durability is unchanged, as an append still resolves only once its
 * commit is on disk. ':memory:' cannot be shared with another thread, so there the writer runs
 * in-process.
 */
import type Database from 'better-sqlite3';
import { resolve } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { spawnWorker } from '../spawn-worker.js';
import type { StreamRetention } from './port.js';
import { logWriter, type AppendOutcome, type AppendRequest } from './sqlite-batch.js';

type Addressed<T> = T & { id: number; connection: number };
export type WriterRequest = Addressed<
  | { kind: 'open'; filename: string }
  | { kind: 'append'; batch: AppendRequest[]; createdAt: number }
  | { kind: 'retention'; stream: string; retention: StreamRetention }
  | { kind: 'close' }
  | { kind: 'host'; filename: string; module: string; setup: unknown; port: MessagePort }
>;
export type WriterReply = { id: number; outcomes: AppendOutcome[] } | { id: number; error: string; code?: string };
type Request = WriterRequest extends infer R ? (R extends WriterRequest ? Omit<R, 'id'> : never) : never;

export interface SqliteWriter {
  /** Rejects when the batch's transaction fails (or the writer is gone). */
  appendBatch(batch: AppendRequest[], createdAt: number): Promise<AppendOutcome[]>;
  setRetention(stream: string, retention: StreamRetention): Promise<void>;
  close(): Promise<void>;
}

export function inProcessWriter(db: Database.Database): SqliteWriter {
  const writer = logWriter(db);
  return {
    appendBatch: async (batch, createdAt) => writer.appendBatch(batch, createdAt),
    setRetention: async (stream, retention) => writer.setRetention(stream, retention),
    close: async () => {},
  };
}

let thread: WriterThread | undefined;
let connections = 0;

/** A writer connection to `filename` in the process's writer thread (started on first use). */
export function threadWriter(filename: string): SqliteWriter {
  if (!thread || thread.failed()) thread = startWriterThread();
  const { send } = thread;
  const connection = connections++;
  const opened = send({ kind: 'open', connection, filename: resolve(filename) });
  opened.catch(() => {}); // reported by the first request that needs the connection
  return {
    appendBatch: async (batch, createdAt) => {
      await opened;
      return send({ kind: 'append', connection, batch, createdAt });
    },
    setRetention: async (stream, retention) => {
      await opened;
      await send({ kind: 'retention', connection, stream, retention });
    },
    close: async () => {
      await opened;
      await send({ kind: 'close', connection });
    },
  };
}

/**
 * Runs `module`'s `hostOnWriterThread(setup, port, onCommit)` on the writer thread, where
 * `onCommit` calls its listener right after each commit that appended to `filename`, in the same
 * turn as the append's reply: the guest (the projections, src/composition/projection-thread.ts)
 * goes on with the work a commit calls for without waking another thread. Returns this side of
 * the guest's port. The writer's module knows nothing of its guest but its URL.
 */
export function hostOnWriterThread(filename: string, module: string, setup: unknown): MessagePort {
  if (!thread || thread.failed()) thread = startWriterThread();
  const { port1, port2 } = new MessageChannel();
  thread
    .send({ kind: 'host', connection: -1, filename: resolve(filename), module, setup, port: port2 }, [port2])
    .catch(() => port1.close());
  return port1;
}

interface WriterThread {
  send(request: Request, transfer?: MessagePort[]): Promise<AppendOutcome[]>;
  failed(): boolean;
}

function startWriterThread(): WriterThread {
  const worker = spawnWorker(import.meta.url, 'sqlite-writer-worker');
  const outstanding = new Map<
    number,
    { resolve: (outcomes: AppendOutcome[]) => void; reject: (error: Error) => void }
  >();
  let nextId = 0;
  let failure: Error | undefined;
  // An idle thread must not keep the process alive; one with a request in flight must.
  worker.unref();
  const fail = (error: Error) => {
    failure ??= error;
    for (const waiter of outstanding.values()) waiter.reject(failure);
    outstanding.clear();
  };
  worker.on('message', (reply: WriterReply) => {
    const waiter = outstanding.get(reply.id);
    outstanding.delete(reply.id);
    if (outstanding.size === 0) worker.unref();
    if ('error' in reply) waiter?.reject(Object.assign(new Error(reply.error), reply.code ? { code: reply.code } : {}));
    else waiter?.resolve(reply.outcomes);
  });
  worker.on('error', (error) => fail(error));
  worker.on('exit', (code) => fail(new Error(`the event log writer thread exited (${code})`)));
  return {
    send: (request, transfer) =>
      new Promise<AppendOutcome[]>((resolve, reject) => {
        if (failure) return reject(failure);
        const id = nextId++;
        outstanding.set(id, { resolve, reject });
        worker.ref();
        // The id first: a literal that starts with a spread and adds a key costs a hidden class per object on Node 20.
        worker.postMessage({ id, ...request }, transfer);
      }),
    failed: () => failure !== undefined,
  };
}
