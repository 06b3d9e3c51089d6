import { pino, type DestinationStream, type Logger } from 'pino';
import { isMainThread } from 'node:worker_threads';

/** Lines gather up to this many bytes before one write(2) (sonic-boom's `minLength`). */
const LOG_BUFFER_BYTES = 4096;
/** A quiet process still shows its lines within this long. */
const LOG_FLUSH_INTERVAL_MS = 250;

let stdout: DestinationStream | undefined;

/**
 * The process's one buffered stdout: lines gather up to 4 KiB and are written synchronously, so
 * the access log costs one write(2) per few dozen requests instead of one per request
 * (bench/README.md) while a slow reader of stdout still holds the process back instead of letting
 * an unbounded buffer grow (an asynchronous destination grew RSS by 150 MiB under the benchmark).
 * Buffered lines are written every 250 ms and at exit, crash included; a SIGKILL loses at most the
 * last 4 KiB. One per process, however many platforms it starts (tests start dozens): one flush
 * timer and one exit hook.
 */
function bufferedStdout(): DestinationStream {
  if (stdout) return stdout;
  const destination = pino.destination({
    dest: 1,
    sync: true,
    minLength: LOG_BUFFER_BYTES,
    periodicFlush: LOG_FLUSH_INTERVAL_MS,
  });
  process.once('exit', () => destination.flushSync());
  return (stdout = destination);
}

/**
 * Structured JSON logs; stack traces and driver messages go here, never into responses.
 * Worker threads log rarely and write each line at once.
 */
export function createLogger(level: string): Logger {
  const options = {
    level,
    base: { service: 'warehouse-watch' },
    redact: ['req.headers.authorization', '*.client_secret'],
  };
  return isMainThread ? pino(options, bufferedStdout()) : pino(options);
}
