/**
 * One HTTP request and its answer, bounded in time and size: the whole exchange (resolution,
 * connection, TLS, headers, body) must finish within `timeoutMs`, and at most `maxBodyBytes` of the
 * body are read; past that the connection is destroyed rather than drained, so a receiver cannot
 * hold a delivery worker by streaming forever. Redirects are answers like any other.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { RefusedAddressError } from './guarded-lookup.js';
import { classifyNetworkError, type AttemptFailure } from './outbound-outcome.js';

export interface Exchange {
  url: URL;
  method: string;
  headers: Record<string, string>;
  /**
   * A string, not a Buffer: Node sends a string body in one write with the headers, whereas a
   * Buffer goes out as a second chunk through writev (measured: a third of the throughput).
   */
  body?: string;
  timeoutMs: number;
  maxBodyBytes: number;
  lookup: LookupFunction;
  agent: http.Agent;
}

export interface AttemptResponse {
  type: 'response';
  status: number;
  headers: IncomingHttpHeaders;
  excerpt: string;
}

export type AttemptResult = AttemptResponse | AttemptFailure;

function refused(error: RefusedAddressError): AttemptFailure {
  return { type: 'failure', kind: 'refused_address', code: error.code, detail: error.message, retryable: false };
}

export function exchange(spec: Exchange): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let settled = false;
    let answer: Omit<AttemptResponse, 'excerpt'> | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    const excerpt = () => Buffer.concat(chunks).toString('utf8');
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };

    let request: http.ClientRequest;
    const timer = setTimeout(() => {
      // Headers already in: the receiver has answered; what it sent of the body is the excerpt.
      if (answer) finish({ ...answer, excerpt: excerpt() });
      else
        finish({
          type: 'failure',
          kind: 'timeout',
          code: 'ETIMEDOUT',
          detail: `no answer within ${spec.timeoutMs} ms`,
          retryable: true,
        });
      request?.destroy();
    }, spec.timeoutMs);

    try {
      request = (spec.url.protocol === 'https:' ? https : http).request({
        protocol: spec.url.protocol,
        hostname: spec.url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: spec.url.port || undefined,
        path: `${spec.url.pathname}${spec.url.search}`,
        method: spec.method,
        headers: {
          ...spec.headers,
          ...(spec.body !== undefined ? { 'content-length': String(Buffer.byteLength(spec.body)) } : {}),
        },
        agent: spec.agent,
        lookup: spec.lookup,
      });
    } catch (error) {
      // Thrown while building the request (an invalid header, say): trying again will not help.
      const code = String((error as NodeJS.ErrnoException).code ?? 'UNKNOWN');
      finish({
        type: 'failure',
        kind: 'network',
        code,
        detail: `the request could not be built (${code})`,
        retryable: false,
      });
      return;
    }

    request.on('error', (error) =>
      finish(error instanceof RefusedAddressError ? refused(error) : classifyNetworkError(error)),
    );
    request.on('response', (response) => {
      answer = { type: 'response', status: response.statusCode ?? 0, headers: response.headers };
      response.on('data', (chunk: Buffer) => {
        const room = spec.maxBodyBytes - size;
        if (chunk.length <= room) {
          chunks.push(chunk);
          size += chunk.length;
          return;
        }
        chunks.push(chunk.subarray(0, room));
        size = spec.maxBodyBytes;
        finish({ ...answer!, excerpt: excerpt() });
        response.destroy();
        request.destroy();
      });
      response.on('end', () => finish({ ...answer!, excerpt: excerpt() }));
      // The body broke off: the status stands, with what arrived.
      response.on('aborted', () => finish({ ...answer!, excerpt: excerpt() }));
      response.on('error', () => finish({ ...answer!, excerpt: excerpt() }));
    });
    request.end(spec.body);
  });
}
