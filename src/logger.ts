import { pino, type Logger } from 'pino';
import { isMainThread } from 'node:worker_threads';

/**
 * Structured JSON logs; stack traces and driver messages go here, never into responses.
 * On the main thread lines go to stdout asynchronously: while one write is on its way the next
 * lines gather behind it, so the access log costs one write per batch of requests instead of one
 * blocking write(2) per request (bench/README.md). pino flushes what is left when the process
 * exits, crash included; a SIGKILL can lose the lines of the last few milliseconds. Worker threads
 * log rarely and keep synchronous writes (pino's exit flush only covers the main thread).
 */
export function createLogger(level: string): Logger {
  const options = { level, base: { service: 'warehouse-watch' }, redact: ['req.headers.authorization', '*.client_secret'] };
  return isMainThread ? pino(options, pino.destination({ dest: 1, sync: false })) : pino(options);
}
