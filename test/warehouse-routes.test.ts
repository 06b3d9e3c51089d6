import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import test, { type ExecutionContext } from 'ava';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { simulatorRoutes } from '../src/gateways/warehouse/simulated/control-routes.js';
import { localSteering } from '../src/gateways/warehouse/simulated/simulator-steering.js';
import { warehouseRoutes } from '../queries/warehouse.js';
import { isPermission, type Permission } from '../src/access/permissions.js';
import {
  fileEnvironmentResolver,
  parseEnvironments,
  simulatedEnvironmentResolver,
  type EnvironmentResolver,
} from '../src/gateways/warehouse/environments.js';
import { createMetricRegistry, type MetricRegistry } from '../src/gateways/warehouse/metrics/registry.js';
import { WarehouseUnavailableError, type WarehouseGateway } from '../src/gateways/warehouse/port.js';
import {
  createSimulatedWarehouse,
  type SimulatedWarehouse,
} from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import { HttpProblem } from '../src/http/problem.js';
import type { AppState } from '../src/http/state.js';
import { answersBare, payloadOf } from './support/answer-shape.js';

const ENV_A = '5b7c1f2e-9a8d-4c3b-8e2f-1a2b3c4d5e6f';
const ENV_B = '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9';
const ENV_C = 'c0ffee00-1234-4abc-9def-000000000042';
const START = Date.parse('2025-03-12T14:30:00Z');

interface App {
  url: string;
  clock: { advance(seconds: number): void };
  simulated: SimulatedWarehouse;
  registry: MetricRegistry;
  gatewayCalls: () => number;
  /** Sends a request as a principal of `envId` holding `permissions`. */
  call(
    path: string,
    options?: { envId?: string; permissions?: Permission[]; body?: unknown },
  ): Promise<{ status: number; body: any }>;
}

/** The route modules on a bare Koa app: a fake principal, problem rendering, both mount points. */
async function startApp(
  t: ExecutionContext,
  environments: EnvironmentResolver = simulatedEnvironmentResolver,
): Promise<App> {
  let nowMs = START;
  const now = () => new Date(nowMs);
  const simulated = createSimulatedWarehouse({ now });
  let calls = 0;
  // Counts every gateway question, to prove each request reads the warehouse afresh (the
  // monitoring user's visibility is metadata a Redshift gateway remembers; not counted).
  const gateway = Object.fromEntries(
    Object.entries(simulated.gateway).map(([name, operation]) => [
      name,
      (...args: unknown[]) => (name === 'queryVisibility' || calls++, (operation as Function)(...args)),
    ]),
  ) as unknown as WarehouseGateway;
  const registry = createMetricRegistry({ gateway, overrides: simulated.control });

  const routes = new Router<AppState>();
  routes.use(warehouseRoutes({ gateway, environments, now }).routes());
  routes.use(simulatorRoutes({ control: localSteering(simulated.control), metrics: registry }).routes());
  const versioned = new Router<AppState>({ prefix: '/api/v1' });
  versioned.use(routes.routes());

  const app = new Koa<AppState>();
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const problem = error instanceof HttpProblem ? error : new HttpProblem(500, 'Internal Server Error');
      ctx.status = problem.status;
      ctx.type = 'application/problem+json';
      ctx.body = {
        type: 'about:blank',
        title: problem.title,
        status: problem.status,
        detail: problem.detail,
        errors: problem.errors,
        ...problem.extensions,
      };
    }
  });
  app.use(bodyParser());
  app.use(async (ctx, next) => {
    const granted = String(ctx.get('x-test-permissions')).split(',').filter(isPermission);
    ctx.state.principal = {
      subject: 'tester',
      userId: 'u-1',
      tenantId: 't-1',
      envId: ctx.get('x-test-env'),
      roles: [],
    };
    ctx.state.can = async (permission) => granted.includes(permission);
    await next();
  });
  app.use(versioned.routes()).use(routes.routes());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    clock: { advance: (seconds) => void (nowMs += seconds * 1000) },
    simulated,
    registry,
    gatewayCalls: () => calls,
    async call(path, { envId = ENV_A, permissions = ['warehouse:read', 'simulator:write'], body } = {}) {
      const response = await fetch(url + path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          'x-test-env': envId,
          'x-test-permissions': permissions.join(','),
          'content-type': 'application/json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
  };
}

// The documented shapes (docs-warehouse.md), strict: no undocumented field slips in.
const iso = z.iso.datetime();
const count = z.number().int().nonnegative();
const tableFields = { schema: z.string(), table_name: z.string(), cluster_id: z.string() };
const totals = {
  node_count: count,
  slices: count,
  capacity_gb: z.number().nullable(),
  used_gb: z.number(),
  pct_used: z.number().nullable(),
};
const SHAPES: Record<string, { list: string; schema: z.ZodType }> = {
  '/warehouse/cluster': {
    list: 'nodes',
    schema: z.strictObject({
      clusters: z
        .array(
          z.strictObject({
            cluster_id: z.string(),
            kind: z.enum(['provisioned', 'serverless']),
            node_type: z.string().nullable(),
            ...totals,
          }),
        )
        .min(1),
      nodes: z
        .array(
          z.strictObject({
            cluster_id: z.string(),
            id: z.string(),
            role: z.enum(['compute', 'shared', 'serverless']),
            slices: count,
            capacity_gb: z.number().nullable(),
            used_gb: z.number(),
            pct_used: z.number().nullable(),
          }),
        )
        .min(1),
      totals: z.strictObject(totals),
      visibility: z.literal('all_queries'),
      generated_at: iso,
    }),
  },
  '/warehouse/queries/slow': {
    list: 'queries',
    schema: z.strictObject({
      queries: z.array(
        z.strictObject({
          query_id: count,
          exec_time_seconds: z.number().int().min(301),
          user_name: z.string(),
          database: z.string(),
          wlm_queue: z.string(),
          query_text: z.string().min(1),
          cluster_id: z.string(),
        }),
      ),
      threshold_seconds: z.literal(300),
      visibility: z.literal('all_queries'),
      generated_at: iso,
    }),
  },
  '/warehouse/queries/spill': {
    list: 'queries',
    schema: z.strictObject({
      queries: z
        .array(
          z.strictObject({
            query_id: count,
            user_name: z.string(),
            spill_mb: z.number().int().positive(),
            exec_time_seconds: count,
            query_text: z.string().min(1),
            cluster_id: z.string(),
          }),
        )
        .max(20),
      lookback_hours: z.literal(24),
      limit: z.literal(20),
      visibility: z.literal('all_queries'),
      generated_at: iso,
    }),
  },
  '/warehouse/tables/vacuum': {
    list: 'tables',
    schema: z.strictObject({
      tables: z.array(
        z.strictObject({
          ...tableFields,
          unsorted_pct: z.number(),
          stats_off: z.number(),
          tbl_rows: count,
          size_mb: count,
          pct_ghost_rows: z.number(),
          recommendation: z.string(),
        }),
      ),
      thresholds: z.strictObject({ unsorted_pct: z.literal(5), stats_off: z.literal(10) }),
      generated_at: iso,
    }),
  },
  '/warehouse/tables/alerts': {
    list: 'alerts',
    schema: z.strictObject({
      alerts: z.array(
        z.strictObject({
          ...tableFields,
          event: z.string(),
          solution: z.string(),
          count: z.number().int().positive(),
          last_seen: iso,
          sample_query_id: count,
        }),
      ),
      lookback_days: z.literal(7),
      visibility: z.literal('all_queries'),
      generated_at: iso,
    }),
  },
  '/warehouse/storage': {
    list: 'tables',
    schema: z.strictObject({
      tables: z
        .array(
          z.strictObject({
            ...tableFields,
            size_mb: count,
            tbl_rows: count,
            unsorted_pct: z.number(),
            pct_ghost_rows: z.number(),
            dist_style: z.string(),
            sortkey1: z.string(),
          }),
        )
        .min(1),
      generated_at: iso,
    }),
  },
};
const ENDPOINTS = Object.keys(SHAPES);

for (const path of ENDPOINTS) {
  test(`GET ${path} returns the documented shape for any env_id, with and without /api/v1`, async (t) => {
    const app = await startApp(t);
    for (const [envId, prefix] of [
      [ENV_A, ''],
      [ENV_B, '/api/v1'],
      [ENV_C, ''],
    ] as const) {
      const { status, body } = await app.call(prefix + path, { envId });
      t.is(status, 200);
      t.true(answersBare(path) ? body.success === undefined : body.success);
      const parsed = SHAPES[path]!.schema.safeParse(payloadOf(path, body));
      t.true(parsed.success, parsed.success ? undefined : JSON.stringify(parsed.error.issues.slice(0, 3)));
      t.is(payloadOf(path, body).generated_at, new Date(START).toISOString());
    }
  });

  test(`GET ${path} needs warehouse:read`, async (t) => {
    const app = await startApp(t);
    const { status, body } = await app.call(path, { permissions: ['simulator:write'] });
    t.is(status, 403);
    t.is(body.detail, 'this operation requires the permission warehouse:read');
  });
}

test('lists are non-empty and ordered as documented for a busy environment', async (t) => {
  const app = await startApp(t);
  const data = async (path: string) => payloadOf(path, (await app.call(path)).body);
  const slow = (await data('/warehouse/queries/slow')).queries as { exec_time_seconds: number }[];
  const spill = (await data('/warehouse/queries/spill')).queries as { spill_mb: number }[];
  const vacuum = (await data('/warehouse/tables/vacuum')).tables as { unsorted_pct: number }[];
  const alerts = (await data('/warehouse/tables/alerts')).alerts as { count: number }[];
  for (const [list, key] of [
    [slow, 'exec_time_seconds'],
    [spill, 'spill_mb'],
    [vacuum, 'unsorted_pct'],
    [alerts, 'count'],
  ] as const) {
    t.true(list.length > 0, `${key} list is empty`);
    const values = list.map((row) => (row as Record<string, number>)[key]!);
    t.deepEqual(
      values,
      [...values].sort((a, b) => b - a),
    );
  }
});

test('an env_id missing from a configured environments file is 404 with a clear message', async (t) => {
  const file = parseEnvironments({
    [ENV_A]: { kind: 'serverless', workgroup_name: 'wg', database: 'dev', region: 'eu-west-1', schema: 'public' },
  });
  const app = await startApp(t, fileEnvironmentResolver(file));
  const { status, body } = await app.call('/warehouse/storage', { envId: ENV_B });
  t.is(status, 404);
  t.is(body.detail, `environment ${ENV_B} has no warehouse configured`);
  t.is(app.gatewayCalls(), 0);
});

test('every request reads the warehouse afresh: a second later the answers differ', async (t) => {
  const app = await startApp(t);
  const first = await Promise.all(ENDPOINTS.map((path) => app.call(path)));
  app.clock.advance(1);
  const second = await Promise.all(ENDPOINTS.map((path) => app.call(path)));
  t.is(app.gatewayCalls(), ENDPOINTS.length * 2);
  ENDPOINTS.forEach((path, i) =>
    t.not(payloadOf(path, first[i]!.body).generated_at, payloadOf(path, second[i]!.body).generated_at, path),
  );

  // The live workload itself moved: running queries aged by exactly the second that passed.
  const before = new Map(
    payloadOf(ENDPOINTS[1]!, first[1]!.body).queries.map((q: { query_id: number; exec_time_seconds: number }) => [
      q.query_id,
      q.exec_time_seconds,
    ]),
  );
  const still = payloadOf(ENDPOINTS[1]!, second[1]!.body).queries.filter((q: { query_id: number }) =>
    before.has(q.query_id),
  );
  t.true(still.length > 0);
  for (const q of still) t.is(q.exec_time_seconds, (before.get(q.query_id) as number) + 1);
  const withoutStamp = (path: string, body: unknown) =>
    JSON.stringify({ ...payloadOf(path, body), generated_at: undefined });
  // Row counts move every second too; node storage (10 MB resolution) and alerts move more slowly.
  for (const i of [1, 5])
    t.not(withoutStamp(ENDPOINTS[i]!, first[i]!.body), withoutStamp(ENDPOINTS[i]!, second[i]!.body), ENDPOINTS[i]);
});

test('a pinned metric is read exactly by the registry until it expires', async (t) => {
  const app = await startApp(t);
  const pin = await app.call('/simulator/metrics', {
    body: { metric: 'storage_utilization_pct', value: 97.5, duration_seconds: 120 },
  });
  t.is(pin.status, 200);
  t.deepEqual(pin.body.data, {
    env_id: ENV_A,
    cluster_id: null,
    metric: 'storage_utilization_pct',
    value: 97.5,
    expires_at: '2025-03-12T14:32:00.000Z',
  });
  const [clusterId] = app.simulated.control.status(ENV_A).clusters;
  const requests = [
    { envId: ENV_A, metric: 'storage_utilization_pct', windowMinutes: 5 },
    { envId: ENV_A, clusterId, metric: 'storage_utilization_pct', windowMinutes: 15 },
    { envId: ENV_B, metric: 'storage_utilization_pct', windowMinutes: 5 },
  ];
  const pinned = await app.registry.readMany(requests);
  t.deepEqual(pinned.map((r) => (r.ok ? r.value : r.error.message)).slice(0, 2), [97.5, 97.5]);
  t.not((pinned[2] as { value: number }).value, 97.5);

  app.clock.advance(121);
  const expired = await app.registry.read(requests[0]!);
  t.true(expired > 0 && expired < 97.5);
});

test('a pin on one cluster leaves the environment-wide reading alone', async (t) => {
  const app = await startApp(t);
  const [clusterId] = app.simulated.control.status(ENV_A).clusters;
  const pin = await app.call('/simulator/metrics', {
    body: { cluster_id: clusterId, metric: 'active_query_count', value: 0, duration_seconds: 60 },
  });
  t.is(pin.status, 200);
  t.is(await app.registry.read({ envId: ENV_A, clusterId, metric: 'active_query_count', windowMinutes: 1 }), 0);
  t.true((await app.registry.read({ envId: ENV_A, metric: 'active_query_count', windowMinutes: 1 })) > 0);
});

const INVALID_PINS: [string, unknown, number, RegExp | string[]][] = [
  [
    'an unknown metric lists the known ones',
    { metric: 'warp_speed', value: 1, duration_seconds: 60 },
    400,
    /unknown metric "warp_speed"; known metrics: query_runtime_seconds, disk_spill_gb, queue_time_seconds/,
  ],
  [
    'a cluster of another environment',
    { cluster_id: 'rs-000000-main', metric: 'unsorted_pct', value: 1, duration_seconds: 60 },
    400,
    /cluster "rs-000000-main" is not part of environment/,
  ],
  [
    'wrong types, with JSON paths',
    { metric: 'unsorted_pct', value: 'high', duration_seconds: -5 },
    400,
    ['/value', '/duration_seconds'],
  ],
  ['unknown fields', { metric: 'unsorted_pct', value: 1, duration_seconds: 5, colour: 'red' }, 400, ['/']],
];

for (const [title, body, status, expected] of INVALID_PINS) {
  test(`POST /simulator/metrics rejects ${title}`, async (t) => {
    const app = await startApp(t);
    const response = await app.call('/api/v1/simulator/metrics', { body });
    t.is(response.status, status);
    if (Array.isArray(expected))
      t.deepEqual(
        response.body.errors.map((e: { path: string }) => e.path),
        expected,
      );
    else t.regex(response.body.detail, expected);
  });
}

test('unknown metric problems carry the known ids as a list', async (t) => {
  const app = await startApp(t);
  const { body } = await app.call('/simulator/metrics', { body: { metric: 'nope', value: 1, duration_seconds: 1 } });
  t.deepEqual(body.known_metrics, app.registry.ids());
});

test('simulator routes need simulator:write', async (t) => {
  const app = await startApp(t);
  for (const [path, body] of [
    ['/simulator/metrics', { metric: 'unsorted_pct', value: 1, duration_seconds: 5 }],
    ['/simulator/cluster', { paused: true }],
  ] as const) {
    t.is((await app.call(path, { body, permissions: ['warehouse:read'] })).status, 403);
  }
  t.false(app.simulated.control.isPaused(ENV_A));
});

test('pausing turns every warehouse endpoint of that environment into 503 until resumed', async (t) => {
  const app = await startApp(t);
  const paused = await app.call('/simulator/cluster', { body: { paused: true } });
  t.is(paused.status, 200);
  t.like(paused.body.data, { env_id: ENV_A, paused: true });
  const clusters: string[] = paused.body.data.clusters;
  const subject =
    clusters.length === 1
      ? `cluster ${clusters[0]} of environment ${ENV_A} is paused`
      : `clusters ${clusters.join(', ')} of environment ${ENV_A} are paused`;

  for (const path of ENDPOINTS) {
    const { status, body } = await app.call(path);
    t.is(status, 503, path);
    t.like(body, { title: 'Service Unavailable', status: 503, detail: subject });
    t.is((await app.call(path, { envId: ENV_B })).status, 200, `${path} of another environment`);
  }
  const [reading] = await app.registry.readMany([{ envId: ENV_A, metric: 'unsorted_pct', windowMinutes: 5 }]);
  t.true(!reading!.ok && reading!.error instanceof WarehouseUnavailableError);

  t.is((await app.call('/simulator/cluster', { body: { paused: false } })).status, 200);
  for (const path of ENDPOINTS) t.is((await app.call(path)).status, 200, path);
});

test('POST /simulator/cluster validates its body', async (t) => {
  const app = await startApp(t);
  const { status, body } = await app.call('/simulator/cluster', { body: { paused: 'yes' } });
  t.is(status, 400);
  t.deepEqual(
    body.errors.map((e: { path: string }) => e.path),
    ['/paused'],
  );
});
