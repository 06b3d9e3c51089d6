/**
 * Public routes (health, metrics, identity provider, documents, dashboard) are matched only for
 * paths outside /api/v1, so an API request never walks their routers; a public route under
 * /api/v1 would be unreachable, and createApp refuses it.
 */
import Router from '@koa/router';
import test from 'ava';
import { createServer, request } from 'node:http';
import { pino } from 'pino';
import { API_PREFIX, createApp, type AppDeps } from '../src/http/app.js';
import { createPlatformMetrics } from '../src/metrics.js';

const deps = (publicRoutes: Router[]): AppDeps => ({
  logger: pino({ level: 'silent' }),
  metrics: createPlatformMetrics(),
  publicRoutes,
  authenticate: async (ctx) => {
    ctx.status = 401;
  },
  permissions: { can: async () => false },
  modules: [],
});

const publicRouter = (path: string) => {
  const router = new Router();
  router.get(path, (ctx) => {
    ctx.body = 'public';
  });
  return router;
};

test('a public route under /api/v1 is refused when the app is built, naming the path', (t) => {
  const error = t.throws(() => createApp(deps([publicRouter('/health'), publicRouter(`${API_PREFIX}/status`)])));
  t.regex(error!.message, /public route \/api\/v1\/status may lie under \/api\/v1/);
});

test('public routes outside /api/v1 are served without authentication; an API path goes on to authentication', async (t) => {
  const { app } = createApp(deps([publicRouter('/health')]));
  const server = createServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as { port: number }).port;
  const get = (path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk)).on('end', () => resolve({ status: res.statusCode!, body }));
      })
        .on('error', reject)
        .end();
    });
  try {
    t.deepEqual(await get('/health'), { status: 200, body: 'public' });
    t.is((await get(`${API_PREFIX}/health`)).status, 401);
  } finally {
    server.close();
  }
});
