import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';

/** JSON bodies up to 1 MiB; larger ones are 413, malformed JSON is 400 (both as problem+json). */
export const MAX_BODY = '1mb';

export function jsonBody(): Middleware {
  return bodyParser({ enableTypes: ['json'], jsonLimit: MAX_BODY, encoding: 'utf-8' }) as unknown as Middleware;
}
