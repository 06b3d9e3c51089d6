import test from 'ava';
import {
  fileEnvironmentResolver,
  parseEnvironments,
  simulatedEnvironmentResolver,
} from '../src/gateways/warehouse/environments.js';
import { warehouseHealthProbe } from '../src/gateways/warehouse/health-probe.js';
import { WarehouseUnavailableError, type WarehouseGateway } from '../src/gateways/warehouse/port.js';

const environments = fileEnvironmentResolver(
  parseEnvironments({
    prod: {
      kind: 'provisioned',
      cluster_identifier: 'prod-1',
      database: 'dev',
      db_user: 'monitor',
      region: 'eu-west-1',
      schema: 'public',
    },
    bi: { kind: 'serverless', workgroup_name: 'bi', database: 'dev', region: 'eu-west-1', schema: 'public' },
  }),
);

/** A warehouse whose environments answer or fail as told, counting the questions asked. */
function warehouse(down: Record<string, string>) {
  const asked: string[] = [];
  const gateway = {
    async cluster(envId: string) {
      asked.push(envId);
      if (down[envId]) throw new WarehouseUnavailableError(envId, 'paused', down[envId]);
      return {
        clusters: [],
        nodes: [],
        totals: { node_count: 0, slices: 0, capacity_gb: null, used_gb: 0, pct_used: null },
      };
    },
  } as unknown as WarehouseGateway;
  return { gateway, asked };
}

test('every configured environment answering: the check passes and lists each as ok', async (t) => {
  const { gateway, asked } = warehouse({});
  const check = warehouseHealthProbe({ gateway, environments, now: () => new Date('2026-11-23T10:00:00Z') });
  t.deepEqual(await check(), {
    mode: 'redshift',
    environments: { prod: { status: 'ok' }, bi: { status: 'ok' } },
    checked_at: '2026-11-23T10:00:00.000Z',
  });
  t.deepEqual(asked.sort(), ['bi', 'prod']);
});

test('one environment that cannot answer fails the check, naming it and the reason', async (t) => {
  const { gateway } = warehouse({ bi: 'the workgroup is paused' });
  const check = warehouseHealthProbe({ gateway, environments, now: () => new Date() });
  const error = await t.throwsAsync(check());
  t.regex(error!.message, /bi \(.*paused/);
  t.notRegex(error!.message, /prod/);
});

test('the answer is remembered for the TTL and asked again after it', async (t) => {
  let now = Date.parse('2026-11-23T10:00:00Z');
  const { gateway, asked } = warehouse({});
  const check = warehouseHealthProbe({ gateway, environments, now: () => new Date(now), ttlMs: 30_000 });
  await check();
  now += 29_999;
  await check();
  t.is(asked.length, 2, 'one question per environment within the TTL');
  now += 1;
  await check();
  t.is(asked.length, 4);
});

test('the simulated default has nothing to ask: not_checked, or paused naming the environments the simulator paused', async (t) => {
  const { gateway, asked } = warehouse({});
  let paused: string[] = [];
  const check = warehouseHealthProbe({
    gateway,
    environments: simulatedEnvironmentResolver,
    now: () => new Date(0),
    pausedEnvironments: () => paused,
  });
  t.like(await check(), { status: 'not_checked', mode: 'simulated', environments: {} });
  paused = ['env-a'];
  t.like(await check(), { status: 'paused', mode: 'simulated', paused_environments: ['env-a'] });
  t.is(asked.length, 0);
});
