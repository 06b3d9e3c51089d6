/**
 * The one outbound HTTP(S) client for every notification adapter (and anything else that calls a
 * user-configured URL). It
 *   - connects only to addresses the guard allows, checked on the address actually connected to
 *     (IP literals before connecting, host names inside the socket's own `lookup`);
 *   - never follows redirects: a 3xx is the outcome;
 *   - bounds each attempt in time (5 s) and the body it reads (64 KiB);
 *   - retries per retry-policy.ts with the same Idempotency-Key on every attempt, so a receiver
 *     that saw an attempt we think failed can drop the repeat;
 *   - takes its sleep, clock and random source from the caller, so tests run in virtual time.
 * It never throws: every failure is an HttpOutcome whose message names scheme and host only.
 */
import http from 'node:http';
import https from 'node:https';
import { describeRefusal, guardAddress, isIpLiteral } from './address-guard.js';
import { guardedLookup, systemResolver, type HostResolver } from './guarded-lookup.js';
import { exchange, type AttemptResult } from './http-exchange.js';
import { destinationOf, type HttpOutcome, type OutboundError } from './outbound-outcome.js';
import { DEFAULT_RETRY_POLICY, delayBeforeRetry, type RetryPolicy } from './retry-policy.js';

export interface GuardedClientOptions {
  /** OUTBOUND_ALLOW_PRIVATE_NETWORKS: also connect to loopback, private and other non-public ranges. */
  allowPrivateNetworks: boolean;
  /** Bound on one attempt, from resolving the name to the last byte read. Default 5000. */
  timeoutMs?: number;
  /** Bytes of a response body kept as the excerpt; the rest is not read. Default 64 KiB. */
  maxResponseBytes?: number;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number) => Promise<void>;
  /** Epoch milliseconds; used for latency and for Retry-After dates. */
  now?: () => number;
  /** In [0, 1); the jitter of the backoff. */
  random?: () => number;
  resolveHost?: HostResolver;
  /** Reuse connections between deliveries. Default true. */
  keepAlive?: boolean;
  userAgent?: string;
}

export interface OutboundRequest {
  /** GET: a fetch the platform makes itself (an SNS signing certificate, a subscription's confirmation). */
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  /** Headers the channel's owner configured; ours (content type, idempotency key…) win over them. */
  headers?: Record<string, string>;
  body?: string;
  contentType?: string;
  /** One per delivery: the same on every attempt. */
  idempotencyKey: string;
  /** Headers computed afresh for each attempt, e.g. a signature over the attempt's timestamp. */
  attemptHeaders?: () => Record<string, string>;
}

export interface GuardedHttpClient {
  send(request: OutboundRequest): Promise<HttpOutcome>;
  /** Closes kept-alive connections. */
  close(): void;
}

/** Headers that describe the connection or the framing; only the client itself sets them. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);

const lowerCaseKeys = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createGuardedClient(options: GuardedClientOptions): GuardedHttpClient {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxBodyBytes = options.maxResponseBytes ?? 64 * 1024;
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const guardPolicy = { allowPrivateNetworks: options.allowPrivateNetworks };
  const lookup = guardedLookup(options.resolveHost ?? systemResolver, guardPolicy);
  // Our own agents: a socket pooled by the global agent was never checked by the guard.
  const keepAlive = options.keepAlive ?? true;
  const agents = { http: new http.Agent({ keepAlive }), https: new https.Agent({ keepAlive }) };
  const userAgent = options.userAgent ?? 'warehouse-watch-notifier/1';

  function headersFor(request: OutboundRequest): Record<string, string> {
    const configured = Object.fromEntries(
      Object.entries(lowerCaseKeys(request.headers ?? {})).filter(([name]) => !RESERVED_HEADERS.has(name)),
    );
    return {
      ...configured,
      'user-agent': userAgent,
      ...(request.body !== undefined ? { 'content-type': request.contentType ?? 'application/json' } : {}),
      'idempotency-key': request.idempotencyKey,
      ...lowerCaseKeys(request.attemptHeaders?.() ?? {}),
    };
  }

  function outcomeOf(result: AttemptResult, destination: string, attempts: number, startedAt: number): HttpOutcome {
    const latency_ms = Math.max(0, now() - startedAt);
    if (result.type === 'failure') {
      return {
        ok: false,
        latency_ms,
        error: { kind: result.kind, message: `${destination}: ${result.detail}` },
        attempts,
      };
    }
    const ok = result.status >= 200 && result.status <= 299;
    const redirect = result.status >= 300 && result.status <= 399 ? ' (redirects are not followed)' : '';
    const error: OutboundError | undefined = ok
      ? undefined
      : { kind: 'http', message: `${destination} answered ${result.status}${redirect}` };
    return {
      ok,
      status_code: result.status,
      latency_ms,
      response_excerpt: result.excerpt,
      ...(error ? { error } : {}),
      attempts,
    };
  }

  /** Refusals decided from the URL text alone: not a URL, another scheme, a refused IP literal. */
  function refuseBeforeConnecting(url: URL | undefined): string | undefined {
    if (!url) return 'the destination is not a valid URL';
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return `${url.protocol} destinations are not allowed (http and https only)`;
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!isIpLiteral(host)) return undefined; // checked by the lookup, on the address connected to
    const verdict = guardAddress(host, guardPolicy);
    return verdict.allowed ? undefined : `${destinationOf(url)}: ${host} is ${describeRefusal(verdict.reason)}`;
  }

  async function send(request: OutboundRequest): Promise<HttpOutcome> {
    const startedAt = now();
    let url: URL | undefined;
    try {
      url = new URL(request.url);
    } catch {
      url = undefined;
    }
    const refusal = refuseBeforeConnecting(url);
    if (refusal !== undefined || !url) {
      return {
        ok: false,
        latency_ms: Math.max(0, now() - startedAt),
        error: { kind: 'refused_address', message: refusal ?? 'refused' },
        attempts: 1,
      };
    }
    const destination = destinationOf(url);
    const agent = url.protocol === 'https:' ? agents.https : agents.http;
    for (let attempts = 1; ; attempts += 1) {
      const result = await exchange({
        url,
        method: request.method,
        headers: headersFor(request),
        body: request.body,
        timeoutMs,
        maxBodyBytes,
        lookup,
        agent,
      });
      const summary =
        result.type === 'response'
          ? { type: 'response' as const, status: result.status, retryAfter: [result.headers['retry-after']].flat()[0] }
          : { type: 'failure' as const, retryable: result.retryable };
      const delay = delayBeforeRetry(summary, attempts, { policy, random, nowMs: now() });
      if (delay === undefined) return outcomeOf(result, destination, attempts, startedAt);
      await sleep(delay);
    }
  }

  return {
    send,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
