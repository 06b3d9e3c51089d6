/**
 * The HTTP server around the Koa app: bounded requests, problem+json for malformed ones, keep-alive
 * longer than a load balancer's, and a drain on stop that lets in-flight requests finish and answers
 * the requests that still arrive on kept-alive connections instead of resetting them.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, Server as NetServer } from 'node:net';
import { answerClientErrorsAsProblems } from '../http/client-errors.js';

/** How long in-flight requests may take to finish on stop before their connections are cut. */
export const SHUTDOWN_DRAIN_MS = 5_000;
/** The Retry-After of a request answered while draining: another instance, or this one restarted. */
const DRAINING_RETRY_AFTER_SECONDS = 1;

export interface Listening {
  server: Server;
  /** http://127.0.0.1:<port>, the port chosen by the system when PORT is 0. */
  url: string;
  /** Stops accepting connections and lets in-flight requests finish (at most SHUTDOWN_DRAIN_MS). */
  drain(): Promise<void>;
}

export async function listen(
  handler: RequestListener,
  settings: {
    port: number;
    host: string;
    requestTimeoutMs: number;
    /**
     * How long an idle kept-alive connection stays open once the drain has begun
     * (SHUTDOWN_IDLE_GRACE_SECONDS). Closing an idle connection races a request the client is sending
     * on it at that moment, which is then lost with no answer (clients do not retry a POST); so for
     * this long every request that arrives is answered 503 with `Connection: close` (the connection
     * closes after that answer), and only then are the connections that stayed silent closed.
     */
    shutdownIdleGraceMs: number;
  },
): Promise<Listening> {
  // The whole request (headers and body) must arrive within REQUEST_TIMEOUT_SECONDS, else 408 and
  // the connection closes: a slow client cannot hold a connection by trickling bytes. Node's
  // request timeout ends when the request has arrived, so long responses (SSE) are not cut.
  // Connections are checked often enough that the bound holds within a quarter of it (5 s at most).
  const requestTimeout = settings.requestTimeoutMs;
  const drainState = { draining: false, inFlight: new Set<ServerResponse>() };
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.min(5000, Math.max(100, requestTimeout / 4)),
    },
    (request, response) => {
      if (drainState.draining) return answerDraining(request, response);
      drainState.inFlight.add(response);
      response.once('close', () => drainState.inFlight.delete(response));
      handler(request, response);
    },
  );
  answerClientErrorsAsProblems(server);
  server.listen(settings.port, settings.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  // Idle keep-alive sockets stay open longer than a load balancer's idle timeout (60 s on AWS), so
  // the balancer, not us, closes them; Node's 5 s default also resets a client's next request
  // whenever the event loop was busy for a few seconds (the embedded PostgreSQL's start).
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    drain: () =>
      drain(server, drainState, SHUTDOWN_DRAIN_MS, Math.min(settings.shutdownIdleGraceMs, SHUTDOWN_DRAIN_MS)),
  };
}

/**
 * A request that arrived on a kept-alive connection after the drain began: 503 problem+json with
 * `Connection: close`, so the client learns to go elsewhere and Node closes the connection after
 * this answer. The body is read to its end first: closing a socket with unread bytes in it resets the
 * connection, and the client could lose the answer.
 */
function answerDraining(request: IncomingMessage, response: ServerResponse): void {
  const requestId = randomUUID();
  const body = JSON.stringify({
    type: 'about:blank',
    title: 'Service Unavailable',
    status: 503,
    detail: 'the server is shutting down; retry the request',
    request_id: requestId,
  });
  request.once('end', () =>
    response
      .writeHead(503, {
        'Content-Type': 'application/problem+json',
        'Content-Length': Buffer.byteLength(body),
        'Retry-After': String(DRAINING_RETRY_AFTER_SECONDS),
        'X-Request-Id': requestId,
        Connection: 'close',
      })
      .end(body),
  );
  request.resume();
}

/**
 * Stops accepting connections and lets in-flight requests finish, their answers saying
 * `Connection: close`. Requests that arrive on kept-alive connections meanwhile are answered
 * (answerDraining), never reset; connections that stay idle for `idleGraceMs` are closed then, and
 * again as requests complete; whatever is still busy after `ms` is cut.
 */
async function drain(
  server: Server,
  state: { draining: boolean; inFlight: Set<ServerResponse> },
  ms: number,
  idleGraceMs: number,
): Promise<void> {
  state.draining = true;
  for (const response of state.inFlight) if (!response.headersSent) response.setHeader('Connection', 'close');
  // net.Server's close stops accepting connections; http.Server's would also close the idle
  // kept-alive ones at once, losing a request a client is sending on one at that moment.
  const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
  let reapIdle: NodeJS.Timeout | undefined;
  const grace = setTimeout(() => {
    server.closeIdleConnections();
    reapIdle = setInterval(() => server.closeIdleConnections(), 50);
  }, idleGraceMs);
  let deadline: NodeJS.Timeout | undefined;
  const cut = new Promise<void>((resolve) => (deadline = setTimeout(resolve, ms)));
  await Promise.race([closed, cut]);
  clearTimeout(grace);
  clearInterval(reapIdle);
  clearTimeout(deadline);
  server.closeAllConnections();
  await closed;
}
