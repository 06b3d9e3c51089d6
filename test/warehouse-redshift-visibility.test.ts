/**
 * Whose queries the Redshift monitoring user can see: checked once per environment through the
 * Data API (against the stand-in), remembered, and carried by the warehouse answers.
 */
import test, { type ExecutionContext } from 'ava';
import { fileEnvironmentResolver, parseEnvironments } from '../src/gateways/warehouse/environments.js';
import type { QueryVisibility, WarehouseGateway } from '../src/gateways/warehouse/port.js';
import { VISIBILITY_TTL_MS } from '../src/gateways/warehouse/redshift/query-visibility.js';
import { redshiftHarness, warehouseRoutesOver } from './support/redshift-gateway-harness.js';
import {
  type RecordedStatement,
  type RedshiftDataStandin,
  type StandinValue,
} from './support/redshift-data-standin.js';
import { payloadOf } from './support/answer-shape.js';

const environments = fileEnvironmentResolver(
  parseEnvironments({
    'env-prov': {
      kind: 'provisioned',
      cluster_identifier: 'analytics-prod',
      database: 'dw',
      db_user: 'monitor',
      region: 'eu-west-1',
      schema: 'analytics',
    },
    'env-sls': {
      kind: 'serverless',
      workgroup_name: 'bi-workgroup',
      database: 'dev',
      region: 'eu-west-1',
      schema: 'marts',
    },
  }),
);

const VISIBILITY_COLUMNS = ['is_superuser', 'syslog_access', 'system_roles'];
const isVisibilityCheck = (statement: RecordedStatement) =>
  statement.statementName === 'warehouse-watch:query-visibility';

interface Harness {
  standin: RedshiftDataStandin;
  gateway: WarehouseGateway;
  advance(ms: number): void;
  /** The visibility statements executed so far. */
  checks(): RecordedStatement[];
}

async function harness(t: ExecutionContext, visibilityRows: StandinValue[][] | 'fail'): Promise<Harness> {
  const harnessed = await redshiftHarness(
    t,
    (statement) => {
      if (!isVisibilityCheck(statement)) return {};
      return visibilityRows === 'fail'
        ? { outcome: 'FAILED', error: 'ERROR: could not complete because of conflict with concurrent transaction' }
        : { columns: VISIBILITY_COLUMNS, rows: visibilityRows };
    },
    environments,
  );
  return { ...harnessed, checks: () => harnessed.standin.executed.filter(isVisibilityCheck) };
}

const VISIBILITY_CASES: [title: string, row: StandinValue[][], expected: QueryVisibility][] = [
  ['a regular user sees only its own queries', [[0, 'RESTRICTED', 0]], 'own_queries_only'],
  ['SYSLOG ACCESS UNRESTRICTED sees all queries', [[0, 'UNRESTRICTED', 0]], 'all_queries'],
  ['a superuser sees all queries', [[1, 'RESTRICTED', 0]], 'all_queries'],
  ['a holder of sys:monitor or sys:operator sees all queries', [[0, 'RESTRICTED', 1]], 'all_queries'],
  ['a user missing from the catalogue view counts as restricted', [], 'own_queries_only'],
];

for (const [title, rows, expected] of VISIBILITY_CASES) {
  for (const envId of ['env-prov', 'env-sls']) {
    test(`${envId}: ${title}`, async (t) => {
      const { gateway } = await harness(t, rows);
      t.is(await gateway.queryVisibility(envId), expected);
    });
  }
}

test("both kinds ask the user's own svv_user_info row and the system roles, direct or through a role", async (t) => {
  const { gateway, checks } = await harness(t, [[0, 'RESTRICTED', 0]]);
  await gateway.queryVisibility('env-prov');
  await gateway.queryVisibility('env-sls');
  const [provisioned, serverless] = checks();
  t.regex(provisioned!.sql, /FROM svv_user_info u WHERE u.user_name = current_user/);
  t.regex(provisioned!.sql, /u.syslog_access/);
  t.regex(provisioned!.sql, /svv_user_grants g LEFT JOIN svv_role_grants r ON r.role_name = g.role_name/);
  t.regex(
    provisioned!.sql,
    /g.role_name IN \('sys:monitor', 'sys:operator', 'sys:dba', 'sys:superuser'\) OR r.granted_role_name IN \('sys:monitor', 'sys:operator', 'sys:dba', 'sys:superuser'\)/,
  );
  t.like(provisioned, { clusterIdentifier: 'analytics-prod', dbUser: 'monitor', parameters: {} });
  t.regex(serverless!.sql, /FROM svv_user_info u WHERE u.user_name = current_user/);
  t.notRegex(serverless!.sql, /\b(stl|stv|svl)_/);
  t.like(serverless, { workgroupName: 'bi-workgroup' });
});

test('a regular user without grants gets an answer, not unknown: the check reads no superuser-only view', async (t) => {
  const { gateway, standin, checks } = await harness(t, [[0, 'RESTRICTED', 0]]);
  standin.actAs({ superuser: false });
  t.is(await gateway.queryVisibility('env-prov'), 'own_queries_only');
  t.is(await gateway.queryVisibility('env-sls'), 'own_queries_only');
  t.is(checks().length, 2);
});

test('the answer is checked once per environment and remembered for an hour', async (t) => {
  const { gateway, checks, advance } = await harness(t, [[0, 'RESTRICTED', 0]]);
  const answers = await Promise.all([gateway.queryVisibility('env-prov'), gateway.queryVisibility('env-prov')]);
  t.deepEqual(answers, ['own_queries_only', 'own_queries_only']);
  await gateway.queryVisibility('env-prov');
  t.is(checks().length, 1, 'concurrent and later requests share one check');
  await gateway.queryVisibility('env-sls');
  t.is(checks().length, 2, 'each environment is checked on its own');
  advance(VISIBILITY_TTL_MS);
  await gateway.queryVisibility('env-prov');
  t.is(checks().length, 3, 'after an hour a changed grant shows');
});

test('a check that fails answers unknown and is asked again next time', async (t) => {
  const { gateway, checks } = await harness(t, 'fail');
  t.is(await gateway.queryVisibility('env-prov'), 'unknown');
  t.is(await gateway.queryVisibility('env-prov'), 'unknown');
  t.is(checks().length, 2);
});

for (const [rows, expected] of [
  [[[0, 'RESTRICTED', 0]], 'own_queries_only'],
  [[[0, 'UNRESTRICTED', 0]], 'all_queries'],
] as const) {
  test(`the cluster, query and alert answers say ${expected}; table answers do not depend on it`, async (t) => {
    const { gateway, checks } = await harness(t, rows as unknown as StandinValue[][]);
    const get = await warehouseRoutesOver(t, gateway, environments);
    for (const path of [
      '/warehouse/cluster',
      '/warehouse/queries/slow',
      '/warehouse/queries/spill',
      '/warehouse/tables/alerts',
    ]) {
      const { status, body } = await get(path);
      t.is(status, 200, path);
      t.is(payloadOf(path, body).visibility, expected, path);
    }
    for (const path of ['/warehouse/tables/vacuum', '/warehouse/storage']) {
      const { body } = await get(path);
      t.false('visibility' in payloadOf(path, body), path);
    }
    t.is(checks().length, 1);
  });
}
