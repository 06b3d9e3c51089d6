/**
 * A request answered before its body arrived (an anonymous POST gets its 401 before a body byte is
 * read; a refusal by a guard or a query check likewise) is answered with `Connection: close`, and
 * Node closes the socket once the answer is flushed. Kept alive, Node would go on reading and
 * dropping the rest of the declared body so as to reuse the connection: a client announcing
 * `Content-Length: 100000` and trickling a byte every few seconds would hold a socket long after
 * its 401, with no token at all.
 *
 * A body that has fully arrived (read or not) leaves the connection alone: nothing is waited for.
 */
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';

const declaresBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

export const closeAfterUnreadBody: Middleware = async (ctx, next) => {
  try {
    await next();
  } finally {
    if (!ctx.req.complete && declaresBody(ctx.req)) ctx.set('Connection', 'close');
  }
};
