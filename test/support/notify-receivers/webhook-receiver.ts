/**
 * A webhook receiver that does what we tell receivers to do: it checks X-Signature with the
 * channel's secret (its own HMAC code, not the platform's, so a symmetric mistake cannot pass),
 * refuses timestamps outside its tolerance (401 stale) and signatures it has already accepted
 * (409 replayed), and records the payloads it took.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { startHttpReceiver, type HttpReceiver, type RecordedRequest, type Reply } from './http-receiver.js';

export interface WebhookReceiver extends HttpReceiver {
  /** `receivedAt`: this process's clock (Date.now()) when the request was accepted. */
  accepted: Array<{ request: RecordedRequest; payload: Record<string, unknown>; receivedAt: number }>;
  /** Why requests were refused, in order: 'missing', 'stale', 'bad_signature', 'replayed'. */
  refusals: string[];
  /** Answer the next requests with these replies instead (after checking nothing). */
  failNext(...replies: Reply[]): void;
}

export interface WebhookReceiverOptions {
  /** The channel's signing secret, or where to find it (known only once the channel exists). */
  secret: string | (() => string);
  now?: () => number;
  toleranceSeconds?: number;
  /** The answer to a request that passes every check (default: 204). */
  accept?: Reply;
}

export async function startWebhookReceiver(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const now = options.now ?? Date.now;
  const tolerance = options.toleranceSeconds ?? 300;
  const seen = new Set<string>();
  const accepted: WebhookReceiver['accepted'] = [];
  const refusals: string[] = [];
  const scripted: Reply[] = [];
  const refuse = (reason: string, status: number): Reply => (refusals.push(reason), { status, body: reason });

  const receiver = await startHttpReceiver((request) => {
    const next = scripted.shift();
    if (next) return next;
    const header = String(request.headers['x-signature'] ?? '');
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
    if (!match) return refuse('missing', 401);
    const [, timestamp, signature] = match as unknown as [string, string, string];
    if (Math.abs(now() / 1000 - Number(timestamp)) > tolerance) return refuse('stale', 401);
    const secret = typeof options.secret === 'string' ? options.secret : options.secret();
    const expected = createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest();
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return refuse('bad_signature', 401);
    if (seen.has(header)) return refuse('replayed', 409);
    seen.add(header);
    accepted.push({ request, payload: JSON.parse(request.body) as Record<string, unknown>, receivedAt: Date.now() });
    return options.accept ?? { status: 204 };
  });
  return Object.assign(receiver, {
    accepted,
    refusals,
    failNext: (...replies: Reply[]) => void scripted.push(...replies),
  });
}
