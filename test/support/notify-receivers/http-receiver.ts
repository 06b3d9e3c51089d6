/**
 * A programmable HTTP receiver on 127.0.0.1 (random port) for outbound-delivery tests: it records
 * every request and answers with what the test's handler says, including the two misbehaviours a
 * guarded client must survive: never answering, and streaming a body forever.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Reply =
  | { status: number; headers?: Record<string, string>; body?: string }
  /** Read the request, never answer. */
  | { hang: true }
  /** Answer 200 and stream a body until the client goes away. */
  | { endless: true };

export type ReplyHandler = (request: RecordedRequest, index: number) => Reply;

export interface HttpReceiver {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Endless bodies the client stopped reading (the connection was closed under the stream). */
  endlessBodiesCutOff: number;
  /** Bytes written into endless bodies before the client cut them off. */
  endlessBytesWritten: number;
  stop(): Promise<void>;
}

export async function startHttpReceiver(
  handler: ReplyHandler = () => ({ status: 200, body: 'ok' }),
): Promise<HttpReceiver> {
  const receiver = { requests: [] as RecordedRequest[], endlessBodiesCutOff: 0, endlessBytesWritten: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      receiver.requests.push(recorded);
      const reply = handler(recorded, receiver.requests.length - 1);
      if ('hang' in reply) return;
      if ('endless' in reply) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(16 * 1024, 'x');
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) receiver.endlessBytesWritten += chunk.length;
        };
        res.on('drain', pump);
        res.on('close', () => (receiver.endlessBodiesCutOff += 1));
        pump();
        return;
      }
      res.writeHead(reply.status, reply.headers ?? {});
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** JSON reply helper. */
export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
