import { pino, type Logger } from 'pino';

/** Structured JSON logs; stack traces and driver messages go here, never into responses. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'warehouse-watch' }, redact: ['req.headers.authorization', '*.client_secret'] });
}
