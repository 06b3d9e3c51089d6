/**
 * The public ping address, `GET|POST /hb/<token>`: no sign-in, the token is the credential.
 *
 * What a caller can learn is only whether its own request was taken: every refusal of the address
 * (malformed, never issued, rotated away, revoked, deleted heartbeat) is the one identical 404, and
 * no answer names the heartbeat, its tenant or anything else. The checks run in an order that keeps
 * it so: the token's shape, then the per-address rate limit (by the token's keyed hash, whether the
 * address exists or not), then the request's own fields (a 400 or 413 says nothing of the address),
 * and only then the lookup by keyed hash, with the stored hash compared in constant time.
 *
 * `?status=fail` (or a JSON body's `"status": "fail"`, or what a Redshift scheduled query's
 * EventBridge event or a dbt Cloud webhook says of a failed run: heartbeat-ping-senders.ts) is a
 * failed run: it pages at once. A `message` (query, JSON
 * `message`, or a text body) is kept, cut to 500 characters. The body is read up to 10 KiB.
 */
import type { PingAnswer } from '../src/contract/heartbeats.js';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { HEARTBEAT_LIMITS, type PingStatus } from '../src/events/heartbeat.js';
import { hasBody, readCappedBody } from '../src/http/body.js';
import { badRequest, HttpProblem, tooManyRequests } from '../src/http/problem.js';
import { queryParameters } from '../src/http/query-parameters.js';
import { senderPing } from './heartbeat-ping-senders.js';
import { isPingTokenShape, pingTokenHash, sameTokenHash } from './heartbeat-token.js';
import { perMinuteLimit } from '../src/http/per-minute-limit.js';

export const MAX_PING_BODY_BYTES = 10 * 1024;

/** What the ping route needs of a heartbeat found by its address. */
export interface PingedHeartbeat {
  id: string;
  tenantId: string;
  tokenHash: string | null;
}

export interface Ping {
  status: PingStatus;
  message: string | null;
}

export interface HeartbeatPingDeps {
  tokenKey: () => Promise<Buffer>;
  findByTokenHash: (tokenHash: string) => Promise<PingedHeartbeat | null>;
  /** Records the ping and pages or resolves as it says (the composition: src/composition/heartbeats.ts). */
  accept: (heartbeat: PingedHeartbeat, ping: Ping, correlationId: string) => Promise<void>;
  pingsPerAddressPerMinute: number;
}

/** The one answer for every address that does not ping anything. */
const unknownAddress = () => new HttpProblem(404, 'Not Found', 'no heartbeat has this ping address');

function readSmallBody(ctx: Context): Promise<string> {
  return readCappedBody(ctx, MAX_PING_BODY_BYTES, {
    tooLarge: () => new HttpProblem(413, 'Payload Too Large', `a ping's body is at most ${MAX_PING_BODY_BYTES} bytes`),
    endedEarly: () => badRequest('the request body ended early'),
  });
}

const asObject = (text: string): Record<string, unknown> | null => {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
};

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const cut = (text: string | null) => {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed.slice(0, HEARTBEAT_LIMITS.maxMessageChars);
};

/** The ping a request carries. Throws a 400 for a `status` other than `success` or `fail`. */
export async function pingOf(ctx: Context): Promise<Ping> {
  const statusParam = single(ctx.query.status as string | string[] | undefined);
  const messageParam = single(ctx.query.message as string | string[] | undefined);
  const text = hasBody(ctx.req) ? await readSmallBody(ctx) : '';
  const json = text === '' ? null : asObject(text);
  if (json && statusParam === undefined) {
    const known = senderPing(json);
    if (known) return { status: known.status, message: cut(messageParam ?? known.message) };
  }
  const status = statusParam ?? (typeof json?.status === 'string' ? json.status : 'success');
  if (status !== 'success' && status !== 'fail')
    throw badRequest('status must be success or fail', [{ path: '/status', message: 'success or fail' }]);
  const bodyMessage = json ? (typeof json.message === 'string' ? json.message : null) : text;
  return { status, message: cut(messageParam ?? bodyMessage) };
}

export function heartbeatPingRoutes(deps: HeartbeatPingDeps) {
  const router = new Router();
  const limit = perMinuteLimit(deps.pingsPerAddressPerMinute);

  const ping = async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store');
    // The token is in the address: nothing this answer links to may learn it.
    ctx.set('Referrer-Policy', 'no-referrer');
    const token = ctx.params.token ?? '';
    if (!isPingTokenShape(token)) throw unknownAddress();
    const tokenHash = pingTokenHash(await deps.tokenKey(), token);
    const wait = await limit.take(tokenHash);
    if (wait !== undefined)
      throw tooManyRequests(`at most ${deps.pingsPerAddressPerMinute} pings per minute to one address`, wait);
    const received = await pingOf(ctx);
    const heartbeat = await deps.findByTokenHash(tokenHash);
    if (!heartbeat?.tokenHash || !sameTokenHash(heartbeat.tokenHash, tokenHash)) throw unknownAddress();
    await deps.accept(heartbeat, received, String(ctx.state.requestId ?? ''));
    const answer: PingAnswer = { ok: true, status: received.status };
    ctx.status = 200;
    ctx.body = answer;
  };
  // Any other query parameter is a 400, as on every route (it says nothing of the address).
  const accepts = queryParameters(['status', 'message']) as unknown as Middleware;
  router.get('/hb/:token', accepts, ping);
  router.post('/hb/:token', accepts, ping);
  return router;
}
