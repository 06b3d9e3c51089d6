/**
 * Answers to requests that never reached Koa (Node's HTTP layer refused them), as
 * application/problem+json like every other 4xx: 408 when the whole request did not arrive
 * within REQUEST_TIMEOUT_SECONDS, 431 for oversized headers, 400 for anything unparsable. The
 * connection is closed after the answer. What Node itself would do is kept: nothing is written
 * once a response on the socket has started, and a reset connection is simply destroyed.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

const ANSWERS: Record<string, [status: number, title: string, detail: string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'the whole request did not arrive in time'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'the request headers are too large'],
};
const BAD_REQUEST: [number, string, string] = [400, 'Bad Request', 'the request is not valid HTTP'];

export function answerClientErrorsAsProblems(server: Server): void {
  server.on(
    'clientError',
    (error: NodeJS.ErrnoException, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }) => {
      if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
        socket.destroy();
        return;
      }
      const [status, title, detail] = ANSWERS[error.code ?? ''] ?? BAD_REQUEST;
      const body = JSON.stringify({ type: 'about:blank', title, status, detail });
      socket.end(
        `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  );
}
