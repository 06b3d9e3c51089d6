/**
 * A monitoring user that is not a superuser: the stand-in refuses the superuser-only system views
 * as Redshift does, and every answer that needs one names the refused view and the grant instead
 * of an empty list or a 0 (issue 26 item 4).
 */
import test, { type ExecutionContext } from 'ava';
import { warehouseHealthProbe } from '../src/gateways/warehouse/health-probe.js';
import { createMetricRegistry } from '../src/gateways/warehouse/metrics/registry.js';
import { SystemViewPermissionDeniedError, type WarehouseGateway } from '../src/gateways/warehouse/port.js';
import { ACCESS_TTL_MS } from '../src/gateways/warehouse/redshift/system-view-access.js';
import { evaluationErrorReason } from '../src/process/evaluation-error-reason.js';
import { SUPERUSER_ONLY_VIEWS } from '../src/gateways/warehouse/redshift/system-view-grants.js';
import { STANDIN_SUPERUSER_ONLY_VIEWS, type StandinDatabaseUser } from './support/redshift-data-standin.js';
import {
  redshiftEnvironments as environments,
  redshiftHarness,
  START,
  warehouseRoutesOver,
} from './support/redshift-gateway-harness.js';

const REGULAR_USER: StandinDatabaseUser = { superuser: false };

/** Every statement that gets through answers one non-zero row, so a 0 could only come from a refusal read as "no rows". */
async function harness(t: ExecutionContext, user: StandinDatabaseUser) {
  const harnessed = await redshiftHarness(t, (statement) =>
    statement.statementName === 'warehouse-watch:cluster'
      ? { columns: ['node_id', 'slices', 'capacity_mb', 'used_mb'], rows: [['0', 2, 1000, 420]] }
      : { columns: ['value'], rows: [[42]] },
  );
  harnessed.standin.actAs(user);
  return harnessed;
}

const refusal = async (t: ExecutionContext, promise: Promise<unknown>) => {
  const error = await t.throwsAsync(promise, { instanceOf: SystemViewPermissionDeniedError });
  return error as SystemViewPermissionDeniedError;
};

test('the adapter knows every superuser-only view the stand-in refuses (each written from the AWS pages on its own)', (t) => {
  t.deepEqual([...SUPERUSER_ONLY_VIEWS].sort(), [...STANDIN_SUPERUSER_ONLY_VIEWS].sort());
});

test("the stand-in refuses a superuser-only view to a regular user with Redshift's error, unless granted", async (t) => {
  const { standin, gateway } = await harness(t, REGULAR_USER);
  const error = await refusal(t, gateway.cluster('env-prov'));
  t.deepEqual(error.views, ['stv_node_storage_capacity']);
  t.is(error.reason, 'permission_denied');
  t.regex(String((error.cause as Error).message), /permission denied for relation stv_node_storage_capacity/);
  t.is(standin.executed.length, 1);

  standin.actAs({ superuser: false, selectGrants: ['stv_node_storage_capacity'] });
  await t.notThrowsAsync(gateway.cluster('env-prov'));
  for (const role of ['sys:monitor', 'sys:operator', 'sys:dba']) {
    standin.actAs({ superuser: false, roles: [role] });
    await t.notThrowsAsync(gateway.cluster('env-prov'), role);
  }
  standin.actAs({ superuser: false, roles: ['analysts'] });
  await refusal(t, gateway.cluster('env-prov'));
});

test('the refusal names the view and the grants that fix it, for the configured user', async (t) => {
  const { gateway } = await harness(t, REGULAR_USER);
  const error = await refusal(t, gateway.storage('env-prov'));
  t.deepEqual(error.views, ['svv_table_info']);
  t.deepEqual(error.grants, ['GRANT SELECT ON svv_table_info TO monitor;', 'GRANT ROLE sys:monitor TO monitor;']);
  t.regex(error.message, /env-prov.*svv_table_info.*GRANT SELECT ON svv_table_info TO monitor/);
  // Behind a secret the user name is not ours to know.
  const serverless = await refusal(t, gateway.cluster('env-sls'));
  t.deepEqual(serverless.views, ['sys_serverless_usage']);
  t.deepEqual(serverless.grants, [
    'GRANT SELECT ON sys_serverless_usage TO <the user of the secret>;',
    'GRANT ROLE sys:monitor TO <the user of the secret>;',
  ]);
});

for (const [name, ask] of [
  ['vacuum candidates', (g: WarehouseGateway) => g.vacuumCandidates('env-prov')],
  ['table alerts', (g: WarehouseGateway) => g.tableAlerts('env-prov')],
  ['storage', (g: WarehouseGateway) => g.storage('env-sls')],
] as const) {
  test(`${name} on svv_table_info fail by name instead of an empty list`, async (t) => {
    const { gateway } = await harness(t, REGULAR_USER);
    t.deepEqual((await refusal(t, ask(gateway))).views, ['svv_table_info']);
  });
}

test('storage_utilization_pct and unsorted_pct are read errors on a refused view, never a 0', async (t) => {
  const { gateway, standin } = await harness(t, REGULAR_USER);
  const registry = createMetricRegistry({ gateway });
  const readings = await registry.readMany([
    { envId: 'env-prov', metric: 'storage_utilization_pct', windowMinutes: 5 },
    { envId: 'env-prov', metric: 'unsorted_pct', windowMinutes: 5 },
  ]);
  for (const reading of readings) {
    t.false(reading.ok, reading.request.metric);
    if (!reading.ok) {
      t.true(reading.error instanceof SystemViewPermissionDeniedError, reading.request.metric);
      t.is(evaluationErrorReason(reading.error), 'permission_denied');
    }
  }
  t.regex(readings[0]!.ok ? '' : readings[0]!.error.message, /stv_node_storage_capacity/);
  t.regex(readings[1]!.ok ? '' : readings[1]!.error.message, /svv_table_info/);

  standin.actAs({ superuser: false, roles: ['sys:monitor'] });
  t.is(await gateway.readMetric({ envId: 'env-prov', metric: 'unsorted_pct', windowMinutes: 5 }), 42);
});

test('the access check asks each superuser-only view its kind reads, one statement each, remembered', async (t) => {
  const { gateway, standin, advance } = await harness(t, { superuser: false, selectGrants: ['svv_table_info'] });
  const access = await gateway.systemViewAccess!('env-prov');
  t.false(access.denied.includes('svv_table_info'));
  t.true(access.denied.includes('stv_node_storage_capacity'));
  t.true(access.denied.includes('stv_wlm_service_class_config'));
  t.deepEqual(access.unchecked, []);
  t.true(access.grants.includes('GRANT SELECT ON stl_commit_stats TO monitor;'));
  t.is(access.grants.at(-1), 'GRANT ROLE sys:monitor TO monitor;');
  const asked = standin.executed.length;
  t.true(standin.executed.every((s) => /^warehouse-watch:can-read:/.test(s.statementName ?? '')));
  await gateway.systemViewAccess!('env-prov');
  t.is(standin.executed.length, asked, 'remembered');
  standin.actAs({ superuser: false, roles: ['sys:monitor'] });
  advance(ACCESS_TTL_MS);
  t.deepEqual((await gateway.systemViewAccess!('env-prov')).denied, [], 'a fixed grant shows after the TTL');

  const serverless = await gateway.systemViewAccess!('env-sls');
  t.deepEqual(serverless.denied, []);
  t.true(
    standin.executed
      .filter((s) => s.workgroupName === 'bi-workgroup')
      .every((s) => !/\b(stl|stv|svl|svcs)_/.test(s.sql)),
  );
});

test('/health names the refused views and grants per environment without failing the check', async (t) => {
  const { gateway } = await harness(t, REGULAR_USER);
  const check = warehouseHealthProbe({ gateway, environments, now: () => new Date(START) });
  const result = await check();
  const prov = result.environments['env-prov']!;
  t.is(prov.status, 'ok');
  t.true(prov.permission_denied!.includes('stv_node_storage_capacity'));
  t.true(prov.permission_denied!.includes('svv_table_info'));
  t.true(prov.grants!.includes('GRANT ROLE sys:monitor TO monitor;'));
  t.deepEqual([...result.environments['env-sls']!.permission_denied!].sort(), [
    'svv_table_info',
    'sys_serverless_usage',
    'sys_transaction_history',
  ]);
});

test('/health of a fully granted user lists no refusals', async (t) => {
  const { gateway } = await harness(t, { superuser: false, roles: ['sys:monitor'] });
  const result = await warehouseHealthProbe({ gateway, environments, now: () => new Date(START) })();
  t.deepEqual(result.environments['env-prov'], { status: 'ok' });
});

test('the endpoints answer a 503 problem naming the refused view and the grants, not an empty list', async (t) => {
  const { gateway } = await harness(t, REGULAR_USER);
  const get = await warehouseRoutesOver(t, gateway);
  for (const [path, view] of [
    ['/warehouse/cluster', 'stv_node_storage_capacity'],
    ['/warehouse/tables/vacuum', 'svv_table_info'],
    ['/warehouse/storage', 'svv_table_info'],
    ['/warehouse/tables/alerts', 'svv_table_info'],
  ] as const) {
    const { status, type, body } = await get(path);
    t.is(status, 503, path);
    t.regex(type ?? '', /application\/problem\+json/);
    t.like(body, { reason: 'permission_denied', permission_denied: [view] }, path);
    t.deepEqual(body['grants'], [`GRANT SELECT ON ${view} TO monitor;`, 'GRANT ROLE sys:monitor TO monitor;'], path);
    t.regex(String(body['detail']), new RegExp(view));
  }
});
