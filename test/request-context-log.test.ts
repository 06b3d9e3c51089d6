/**
 * The request-context middleware alone, in a small Koa app, at the default level (info): every
 * request gets one access line carrying its request id, and a request that logs nothing else
 * builds no child logger (one per request cost 8-15 % of the throughput).
 */
import test from 'ava';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { createPlatformMetrics } from '../src/metrics.js';
import { requestContext } from '../src/http/request-context.js';

async function serve(handler: Koa.Middleware) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const root = pino({ level: 'info', redact: ['req.headers.authorization', '*.client_secret'] }, sink);
  let children = 0;
  const child = root.child.bind(root);
  const logger = Object.assign(root, {
    child: ((...args: Parameters<Logger['child']>) => (children++, child(...args))) as Logger['child'],
  });
  const app = new Koa();
  app.use(requestContext(logger, createPlatformMetrics()));
  const madeBeforeRequests = children;
  app.use(handler);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    lines,
    childrenPerRequests: () => children - madeBeforeRequests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

test('a request that logs nothing gets its access line with its request id and no child logger', async (t) => {
  const app = await serve((ctx) => {
    ctx.body = { ok: true };
  });
  t.teardown(app.close);
  for (let i = 0; i < 3; i++) await fetch(`${app.url}/things`, { headers: { 'X-Request-Id': `req-${i}` } });
  t.is(app.childrenPerRequests(), 0);
  t.deepEqual(
    app.lines.map(({ requestId, method, path, status, msg }) => ({ requestId, method, path, status, msg })),
    [0, 1, 2].map((i) => ({ requestId: `req-${i}`, method: 'GET', path: '/things', status: 200, msg: 'request' })),
  );
});

test('the access line is not run through redaction (its fields are fixed and never secret); what handlers log still is', async (t) => {
  const app = await serve((ctx) => {
    ctx.state.log.warn({ client: { client_secret: 'hunter2' } }, 'handler line');
    ctx.body = { ok: true };
  });
  t.teardown(app.close);
  await fetch(`${app.url}/things?client_secret=x`);
  t.deepEqual(app.lines.find((line) => line.msg === 'handler line')?.client, { client_secret: '[Redacted]' });
  t.is(app.lines.find((line) => line.msg === 'request')?.path, '/things');
});

test('a request that logs gets one child logger, and its access line carries the same request id', async (t) => {
  const app = await serve((ctx) => {
    ctx.state.log.warn('something to say');
    ctx.state.log.warn('and more');
    ctx.body = { ok: true };
  });
  t.teardown(app.close);
  await fetch(`${app.url}/things`, { headers: { 'X-Request-Id': 'req-x' } });
  t.is(app.childrenPerRequests(), 1);
  t.deepEqual(
    app.lines.map(({ requestId, msg }) => ({ requestId, msg })),
    [
      { requestId: 'req-x', msg: 'something to say' },
      { requestId: 'req-x', msg: 'and more' },
      { requestId: 'req-x', msg: 'request' },
    ],
  );
});
