/**
 * Request bodies: JSON objects up to 1 MiB. A body that is not JSON is 415 (on POST, PUT, PATCH),
 * malformed JSON is 400 naming the position (never echoing the body, which may hold secrets),
 * `null`, arrays and scalars are 400 "body must be a JSON object", more than 1 MiB is 413.
 * A POST, PUT or PATCH without a body gets `{}`, as before.
 */
import { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware, Next } from 'koa';
import type { IncomingMessage } from 'node:http';
import { jsonErrorPosition } from './json-error-position.js';
import { badRequest, HttpProblem } from './problem.js';

export const MAX_BODY_BYTES = 1024 * 1024;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The hook for endpoints that must also take form-encoded bodies: the OAuth token endpoint
 * (RFC 6749 section 4.4.2 has clients send `application/x-www-form-urlencoded`). On these paths a
 * form body is parsed into `ctx.request.body` (an object of strings) instead of being a 415.
 */
export const FORM_BODY_PATHS: ReadonlySet<string> = new Set(['/oauth/token']);

/**
 * Paths whose routes answer for their own bodies, left unread here: the action-link pages
 * (POST /a/<token>) refuse a body they do not take with an HTML page, not problem+json, since a
 * person pressed a button (src/action-links/confirm-request.ts); the heartbeat ping address
 * (/hb/<token>) reads at most a few KiB of any type itself (commands/heartbeat-ping-routes.ts); the
 * Events API v2 address (/v2/…) reads up to PagerDuty's 512 KB and answers in PagerDuty's shapes
 * (commands/events-v2-routes.ts); the receivers keyed in their address (/integrations/<kind>/<key>)
 * read their own, SNS's JSON arriving as text/plain (commands/receiver-routes.ts).
 */
export const OWN_BODY_PATH_PREFIXES: readonly string[] = ['/a/', '/hb/', '/v2/', '/integrations/'];

/** Whether the request carries body bytes (an empty POST sends `Content-Length: 0`). */
export function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return Number.isFinite(length) && length > 0;
}

/**
 * Reads the body with the stream's own events: an async iterator over the request costs an
 * iterator, a promise per chunk and a destroy at the end, measurable on every POST (bench/README.md).
 * Exported for the benchmark's Koa floor (bench/support/floor-koa.ts), which reads as the platform does.
 */
export function readBodyText(ctx: Context): Promise<string> {
  const tooLarge = () => new HttpProblem(413, 'Payload Too Large', `the body exceeds ${MAX_BODY_BYTES} bytes`);
  if (Number(ctx.get('Content-Length') || 0) > MAX_BODY_BYTES) return Promise.reject(tooLarge());
  const req = ctx.req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error?: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', done).off('close', onClose);
      if (error) reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      done(tooLarge());
      // Stop reading what is left; the 413 is answered and the connection closed after it.
      req.pause();
    };
    const onEnd = () => {
      done();
      const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
      // A leading byte-order mark is not part of the JSON text (as TextDecoder, used before, dropped it).
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    };
    const onClose = () => done(new HttpProblem(400, 'Bad Request', 'the request body ended early'));
    req.on('data', onData).on('end', onEnd).on('error', done).on('close', onClose);
  });
}

export function parseJsonObject(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('the request body is not valid JSON', [
      { path: '', message: `invalid JSON at position ${jsonErrorPosition(text)}` },
    ]);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badRequest('body must be a JSON object', [{ path: '', message: 'body must be a JSON object' }]);
  }
  return parsed as Record<string, unknown>;
}

/**
 * The exact header almost every client sends is JSON without asking type-is, which parses the
 * header and matches both patterns on every request (about 1.5 % of a create's event loop); any
 * other spelling, parameters included, is left to type-is as before.
 */
const isJson = (ctx: Context) =>
  ctx.req.headers['content-type'] === 'application/json' || Boolean(ctx.is('application/json', 'application/*+json'));

export function jsonBody(
  formPaths: ReadonlySet<string> = FORM_BODY_PATHS,
  ownBodyPrefixes: readonly string[] = OWN_BODY_PATH_PREFIXES,
): Middleware {
  const formParser = bodyParser({ enableTypes: ['form'], formLimit: String(MAX_BODY_BYTES) }) as unknown as Middleware;
  /**
   * The token endpoint answers an unreadable or unexpected body with its own RFC 6749 error
   * (invalid_request), so here it is only marked, never refused; too large stays 413.
   */
  const tokenEndpointBody = async (ctx: Context, next: Next) => {
    try {
      if (ctx.is('application/x-www-form-urlencoded')) return await formParser(ctx, next);
      if (ctx.is('application/json', 'application/*+json')) ctx.request.body = parseJsonObject(await readBodyText(ctx));
      else ctx.state.unreadableBody = true;
    } catch (error) {
      if (error instanceof HttpProblem && error.status === 413) throw error;
      ctx.state.unreadableBody = true;
    }
    return next();
  };
  return async (ctx: Context, next: Next) => {
    // Read once: a public route that matched but passed the request on has read it already.
    if (ctx.state.bodyRead) return next();
    ctx.state.bodyRead = true;
    if (ownBodyPrefixes.some((prefix) => ctx.path.startsWith(prefix))) return next();
    if (!hasBody(ctx.req)) {
      if (BODY_METHODS.has(ctx.method)) ctx.request.body = {};
      return next();
    }
    if (formPaths.has(ctx.path)) return tokenEndpointBody(ctx, next);
    if (isJson(ctx)) {
      ctx.request.body = parseJsonObject(await readBodyText(ctx));
      return next();
    }
    if (BODY_METHODS.has(ctx.method)) {
      throw new HttpProblem(415, 'Unsupported Media Type', 'the body must be JSON (Content-Type: application/json)');
    }
    return next();
  };
}

/**
 * A body read by a route that answers in its own words (the Events API v2 address, the heartbeat
 * pings): at most `maxBytes`, refused with the route's own errors. The shared parser above keeps its
 * own loop: it runs on every POST and its refusals are fixed.
 */
export function readCappedBody(
  ctx: Context,
  maxBytes: number,
  refusals: { tooLarge: () => Error; endedEarly: () => Error },
): Promise<string> {
  if (Number(ctx.get('Content-Length') || 0) > maxBytes) return Promise.reject(refusals.tooLarge());
  const req = ctx.req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      stop();
      // Stop reading what is left; the 413 is answered and the connection closed after it.
      req.pause();
      reject(refusals.tooLarge());
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onClose = () => {
      stop();
      reject(refusals.endedEarly());
    };
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
