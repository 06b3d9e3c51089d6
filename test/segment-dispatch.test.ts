/**
 * Dispatch by first path segment answers every request exactly as one router holding all modules
 * did (status, body, Allow), while a request only tries the routes of the modules that can serve
 * its segment.
 */
import Router from '@koa/router';
import test from 'ava';
import Koa, { type Middleware } from 'koa';
import { createServer, request, type Server } from 'node:http';
import { literalFirstSegment, requestFirstSegment, segmentDispatch } from '../src/http/segment-dispatch.js';
import type { AppState } from '../src/http/state.js';

const PREFIX = '/api/v1';

/** Modules as areas build them: each handler answers with its module and route. */
function modules(): Router<AppState>[] {
  const answer =
    (name: string): Middleware<AppState> =>
    (ctx) => {
      ctx.body = `${name} ${JSON.stringify(ctx.params)} ${String((ctx.state as { seen?: string }).seen ?? '')}`;
    };
  const channels = new Router<AppState>();
  channels.get('/notification-channels', answer('channels.list'));
  channels.post('/notification-channels', answer('channels.create'));
  channels.get('/notification-channels/:id', answer('channels.get'));
  channels.put('/notification-channels/:id', answer('channels.put'));
  channels.post('/notification-channels/:id/test', answer('channels.test'));
  // A second module on the same segment: its route must come after the first module's.
  const channelExtras = new Router<AppState>();
  channelExtras.get('/notification-channels/:id', answer('extras.get-never-reached'));
  channelExtras.delete('/notification-channels/:id', answer('extras.delete'));
  channelExtras.get('/escalation-policies', answer('extras.policies'));
  // A module with a prefix of its own and a router-level middleware (a pattern: it sees every path).
  const warehouse = new Router<AppState>({ prefix: '/warehouse' });
  warehouse.use(async (ctx, next) => {
    (ctx.state as { seen?: string }).seen = 'warehouse-middleware';
    await next();
  });
  warehouse.get('/health', answer('warehouse.health'));
  warehouse.get('/queries/:queryId', answer('warehouse.query'));
  // A route whose first segment is a parameter: it may match any segment.
  const tenants = new Router<AppState>();
  tenants.get('/:tenant/overview', answer('tenants.overview'));
  const root = new Router<AppState>();
  root.get('/', answer('root.index'));
  root.patch('/Schedules', answer('schedules.patch'));
  return [channels, channelExtras, warehouse, tenants, root];
}

async function serve(dispatch: Middleware<AppState>): Promise<{ server: Server; port: number }> {
  const app = new Koa<AppState>();
  app.use(dispatch);
  const server = createServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

const send = (port: number, method: string, path: string) =>
  new Promise<{ status: number; body: string; allow: string | undefined }>((resolve, reject) => {
    request({ host: '127.0.0.1', port, method, path }, (res) => {
      let body = '';
      res
        .on('data', (chunk) => (body += chunk))
        .on('end', () => resolve({ status: res.statusCode!, body, allow: res.headers.allow }));
    })
      .on('error', reject)
      .end();
  });

/** The single router the platform had: every module in one router per mount, then allowedMethods. */
function singleRouter(prefix: string): Middleware<AppState> {
  const router = new Router<AppState>(prefix === '' ? {} : { prefix });
  for (const module of modules()) router.use(module.routes());
  const routes = router.routes() as unknown as Middleware<AppState>;
  const allowed = router.allowedMethods() as unknown as Middleware<AppState>;
  return (ctx, next) => routes(ctx, () => allowed(ctx, next));
}

const REQUESTS: [method: string, path: string][] = [
  ['GET', '/api/v1/notification-channels'],
  ['POST', '/api/v1/notification-channels'],
  ['GET', '/api/v1/notification-channels/'],
  ['HEAD', '/api/v1/notification-channels'],
  ['HEAD', '/api/v1/unknown'],
  ['GET', '/API/V1/Notification-Channels'],
  ['GET', '/api/v1/notification-channels/c1'],
  ['DELETE', '/api/v1/notification-channels/c1'],
  ['PATCH', '/api/v1/notification-channels/c1'],
  ['OPTIONS', '/api/v1/notification-channels/c1'],
  ['TRACE', '/api/v1/notification-channels'],
  ['POST', '/api/v1/notification-channels/c1/test'],
  ['GET', '/api/v1/notification-channels/c1/test'],
  ['GET', '/api/v1/escalation-policies'],
  ['GET', '/api/v1/warehouse/health'],
  ['GET', '/api/v1/warehouse/queries/q%2F1'],
  ['GET', '/api/v1/warehouse'],
  ['GET', '/api/v1/acme/overview'],
  ['GET', '/api/v1/notification-channels/overview'],
  ['GET', '/api/v1/warehouse/overview'],
  ['GET', '/api/v1/unknown'],
  ['GET', '/api/v1'],
  ['GET', '/api/v1/'],
  ['PATCH', '/api/v1/schedules'],
  ['GET', '/api/v1//notification-channels'],
  ['GET', '/api/v10/notification-channels'],
  ['GET', '/notification-channels'],
  ['GET', '/'],
  ['GET', '/api/v1/notification%2Dchannels'],
];

for (const prefix of [PREFIX, '']) {
  test(`dispatch by segment answers as the single router, mounted at '${prefix}'`, async (t) => {
    const single = await serve(singleRouter(prefix));
    const indexed = await serve(segmentDispatch(prefix, modules()));
    try {
      for (const [method, path] of REQUESTS) {
        const requestPath = prefix === '' ? path.replace(/^\/api\/v1(?=\/|$)/i, '') || '/' : path;
        t.deepEqual(
          await send(indexed.port, method, requestPath),
          await send(single.port, method, requestPath),
          `${method} ${requestPath}`,
        );
      }
    } finally {
      single.server.close();
      indexed.server.close();
    }
  });
}

test.serial('a request tries only the routes of the modules that can serve its first segment', async (t) => {
  const layerPrototype = Object.getPrototypeOf(new Router().get('/x', () => undefined).stack[0]) as {
    match: (path: string) => boolean;
  };
  const original = layerPrototype.match;
  const tried: string[] = [];
  layerPrototype.match = function (this: { path: string }, path: string) {
    tried.push(this.path);
    return original.call(this, path);
  };
  const indexed = await serve(segmentDispatch(PREFIX, modules()));
  try {
    t.is((await send(indexed.port, 'GET', '/api/v1/escalation-policies')).status, 200);
    // Serial: the patched prototype must not see the other tests' requests. The channel-extras
    // module serves the segment; the warehouse middleware and the tenant route
    // may match any segment; the channels module's and the root module's routes are not tried.
    t.false(
      tried.some(
        (path) =>
          path === `${PREFIX}/notification-channels` ||
          path === `${PREFIX}/schedules` ||
          path.startsWith(`${PREFIX}/Schedules`),
      ),
      tried.join(', '),
    );
    t.true(tried.includes(`${PREFIX}/escalation-policies`));
    t.true(tried.includes(`${PREFIX}/:tenant/overview`));
  } finally {
    layerPrototype.match = original;
    indexed.server.close();
  }
});

test('first segments: literal words are indexed without case, patterns and parameters are not', (t) => {
  const cases: [path: string | RegExp, regexp: boolean, expected: string | null][] = [
    ['/notification-channels/:id', false, 'notification-channels'],
    ['/Schedules', false, 'schedules'],
    ['/', false, ''],
    ['/:tenant/overview', false, null],
    ['/files{.:ext}', false, null],
    ['/*rest', false, null],
    ['/v1.2/x', false, 'v1.2'],
    [/^\/regex/, false, null],
    ['/plain', true, null],
    [String.raw`(?:\/|$)`, true, null],
  ];
  for (const [path, regexp, expected] of cases) t.is(literalFirstSegment(path, regexp), expected, String(path));
});

test('a request path is read below the mount prefix, without case', (t) => {
  const cases: [path: string, prefix: string, expected: string | null][] = [
    ['/api/v1/notification-channels/c1', PREFIX, 'notification-channels'],
    ['/API/V1/Notification-Channels', PREFIX, 'notification-channels'],
    ['/api/v1', PREFIX, ''],
    ['/api/v1/', PREFIX, ''],
    ['/api/v10/x', PREFIX, null],
    ['/health', PREFIX, null],
    ['/health', '', 'health'],
    ['/', '', ''],
  ];
  for (const [path, prefix, expected] of cases) t.is(requestFirstSegment(path, prefix), expected, `${prefix} ${path}`);
});
