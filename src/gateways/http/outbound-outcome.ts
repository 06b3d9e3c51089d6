/**
 * What one outbound delivery over HTTP came to, and how a failed attempt is named. Messages are
 * built from error codes and the destination's scheme and host only: a webhook URL's path or
 * query often is the credential (chat incoming webhooks), so it never reaches a message or a log.
 */

export type OutboundErrorKind = 'refused_address' | 'dns' | 'timeout' | 'tls' | 'network' | 'http';

export interface OutboundError {
  kind: OutboundErrorKind;
  /** Safe to record in events and show to the channel's owner: no path, query or credentials. */
  message: string;
}

export interface HttpOutcome {
  /** A 2xx answer. */
  ok: boolean;
  /** The last answer's status, when there was an answer (3xx included: redirects are not followed). */
  status_code?: number;
  /** From the first attempt to the outcome, waits between attempts included. */
  latency_ms: number;
  /** The start of the last answer's body (at most 64 KiB), for the channel test and the event log. */
  response_excerpt?: string;
  error?: OutboundError;
  attempts: number;
}

/** One attempt that got no HTTP answer. */
export interface AttemptFailure {
  type: 'failure';
  kind: Exclude<OutboundErrorKind, 'http'>;
  /** Errno or library code, e.g. ECONNREFUSED, ENOTFOUND, CERT_HAS_EXPIRED. */
  code: string;
  /** Why, without the URL; completed by the client with the destination. */
  detail: string;
  retryable: boolean;
}

/** `https://hooks.example.com` for `https://user:pw@hooks.example.com/services/T0/B0/secret?x=1`. */
export function destinationOf(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ENODATA', 'ESERVFAIL']);
/** Name resolution failures worth another try: the resolver, not the name, failed. */
const TRANSIENT_DNS_CODES = new Set(['EAI_AGAIN', 'ESERVFAIL']);

/** OpenSSL and Node TLS codes; EPROTO is what talking TLS to a plain-HTTP port gives. */
const isTlsCode = (code: string) =>
  code.includes('CERT') || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_') || code === 'EPROTO';

/**
 * Names a network-level error by its code. The error's own message is not used: Node puts the
 * request's URL or header values into some of them.
 */
export function classifyNetworkError(error: unknown): AttemptFailure {
  const code = String((error as NodeJS.ErrnoException | undefined)?.code ?? 'UNKNOWN');
  if (DNS_CODES.has(code)) {
    return {
      type: 'failure',
      kind: 'dns',
      code,
      detail: `the host name could not be resolved (${code})`,
      retryable: TRANSIENT_DNS_CODES.has(code),
    };
  }
  if (isTlsCode(code))
    return { type: 'failure', kind: 'tls', code, detail: `the TLS handshake failed (${code})`, retryable: false };
  if (code === 'ETIMEDOUT')
    return { type: 'failure', kind: 'timeout', code, detail: 'the connection timed out', retryable: true };
  return { type: 'failure', kind: 'network', code, detail: `the connection failed (${code})`, retryable: true };
}
