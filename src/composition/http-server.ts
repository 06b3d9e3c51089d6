/**
 * The HTTP server around the Koa app: bounded requests, problem+json for malformed ones, keep-alive
 * longer than a load balancer's, and a drain on stop that lets in-flight requests finish.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientErrorsAsProblems } from '../http/client-errors.js';

/** How long in-flight requests may take to finish on stop before their connections are cut. */
export const SHUTDOWN_DRAIN_MS = 5_000;

export interface Listening {
  server: Server;
  /** http://127.0.0.1:<port>, the port chosen by the system when PORT is 0. */
  url: string;
  /** Stops accepting connections and lets in-flight requests finish (at most SHUTDOWN_DRAIN_MS). */
  drain(): Promise<void>;
}

export async function listen(
  handler: RequestListener,
  settings: { port: number; host: string; requestTimeoutMs: number },
): Promise<Listening> {
  // The whole request (headers and body) must arrive within REQUEST_TIMEOUT_SECONDS, else 408 and
  // the connection closes: a slow client cannot hold a connection by trickling bytes. Node's
  // request timeout ends when the request has arrived, so long responses (SSE) are not cut.
  // Connections are checked often enough that the bound holds within a quarter of it (5 s at most).
  const requestTimeout = settings.requestTimeoutMs;
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.min(5000, Math.max(100, requestTimeout / 4)),
    },
    handler,
  );
  answerClientErrorsAsProblems(server);
  server.listen(settings.port, settings.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  // Idle keep-alive sockets stay open longer than a load balancer's idle timeout (60 s on AWS), so
  // the balancer, not us, closes them; Node's 5 s default also resets a client's next request
  // whenever the event loop was busy for a few seconds (the embedded PostgreSQL's start).
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, drain: () => drain(server, SHUTDOWN_DRAIN_MS) };
}

/**
 * Stops accepting connections and lets in-flight requests finish: idle keep-alive connections are
 * closed at once and again as requests complete; whatever is still busy after `ms` is cut.
 */
async function drain(server: Server, ms: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const reapIdle = setInterval(() => server.closeIdleConnections(), 50);
  let deadline: NodeJS.Timeout | undefined;
  const cut = new Promise<void>((resolve) => (deadline = setTimeout(resolve, ms)));
  await Promise.race([closed, cut]);
  clearInterval(reapIdle);
  clearTimeout(deadline);
  server.closeAllConnections();
  await closed;
}
