/**
 * How the Redshift adapter measures: RA3 capacity counted once (every node repeats the cluster's
 * managed quota), spill summed at one SYS_QUERY_DETAIL metrics level everywhere, and CPU labelled
 * as the estimate it is (issue 26 item 4).
 */
import test from 'ava';
import { BUILTIN_METRICS } from '../src/gateways/warehouse/metric-catalogue.js';
import { clusterCapacityMb, MANAGED_QUOTA_MIN_MB } from '../src/gateways/warehouse/redshift/cluster-capacity.js';
import { provisionedSql } from '../src/gateways/warehouse/redshift/sql/provisioned-sql.js';
import {
  queryHeaderStatement,
  queryStepsStatement,
} from '../src/gateways/warehouse/redshift/sql/query-diagnostics-sql.js';
import { serverlessSql } from '../src/gateways/warehouse/redshift/sql/serverless-sql.js';
import { finishedQueriesStatement } from '../src/gateways/warehouse/redshift/sql/sync-sources-sql.js';
import { userWorkloadStatement } from '../src/gateways/warehouse/redshift/sql/workload-diagnostics-sql.js';
import type { SqlStatement } from '../src/gateways/warehouse/redshift/statement-runner.js';
import { redshiftHarness } from './support/redshift-gateway-harness.js';

const TB_MB = 1024 * 1024;

async function clusterOf(
  t: import('ava').ExecutionContext,
  rows: [node: string, slices: number, capacityMb: number, usedMb: number][],
) {
  const { gateway } = await redshiftHarness(t, () => ({
    columns: ['node_id', 'slices', 'capacity_mb', 'used_mb'],
    rows,
  }));
  return gateway.cluster('env-prov');
}

test('an RA3 cluster whose nodes each report the 64 TB quota has 64 TB, not 64 TB per node', async (t) => {
  const health = await clusterOf(t, [
    ['0', 2, 64 * TB_MB, 6 * TB_MB],
    ['1', 2, 64 * TB_MB, 10 * TB_MB],
  ]);
  t.is(health.totals.capacity_gb, 64 * 1024);
  t.is(health.totals.used_gb, 16 * 1024);
  t.is(health.totals.pct_used, 25);
  t.is(health.clusters[0]!.capacity_gb, 64 * 1024);
});

test('DC2 nodes report their own local disk and add up', async (t) => {
  const health = await clusterOf(t, [
    ['0', 16, 2_621_440, 1_310_720],
    ['1', 16, 2_621_440, 1_310_720],
  ]);
  t.is(health.totals.capacity_gb, 5120);
  t.is(health.totals.pct_used, 50);
});

test('the capacity rule: one repeated quota counts once, local disks and unequal rows add up', (t) => {
  t.is(clusterCapacityMb([MANAGED_QUOTA_MIN_MB, MANAGED_QUOTA_MIN_MB, MANAGED_QUOTA_MIN_MB]), MANAGED_QUOTA_MIN_MB);
  t.is(clusterCapacityMb([2_600_000, 2_600_000]), 5_200_000);
  t.is(clusterCapacityMb([MANAGED_QUOTA_MIN_MB, 2 * MANAGED_QUOTA_MIN_MB]), 3 * MANAGED_QUOTA_MIN_MB);
  t.is(clusterCapacityMb([]), 0);
});

test('storage_utilization_pct divides by the same once-per-cluster capacity', (t) => {
  const statement = provisionedSql.metric('storage_utilization_pct', {
    since: '2025-03-12 14:00:00',
    windowSeconds: 900,
    schema: 'a',
  }) as SqlStatement;
  t.regex(
    statement.sql,
    /NULLIF\(CASE WHEN MIN\(capacity\) = MAX\(capacity\) AND MAX\(capacity\) >= 8388608 THEN MAX\(capacity\) ELSE SUM\(capacity\) END, 0\)/,
  );
  t.notRegex(statement.sql, /NULLIF\(SUM\(capacity\)/);
});

test('every statement that sums SYS_QUERY_DETAIL spill sums the step level only', (t) => {
  const since = '2025-03-12 14:00:00';
  const statements: [string, SqlStatement][] = [
    ['spill list', serverlessSql.spillQueries(since, 20)],
    [
      'disk_spill_gb',
      serverlessSql.metric('disk_spill_gb', { since, windowSeconds: 900, schema: 'a' }) as SqlStatement,
    ],
    ['query history sync', finishedQueriesStatement(new Date(0), new Date(1000))],
    ['user workload', userWorkloadStatement('serverless', since)],
    ['query header', queryHeaderStatement('serverless', 7)],
    ['query steps', queryStepsStatement('serverless', 7)],
  ];
  for (const [name, { sql }] of statements) {
    t.regex(sql, /spilled_block_local_disk/, name);
    // Each reading of sys_query_detail carries the level filter.
    const reads = sql.split(/FROM sys_query_detail/).slice(1);
    t.true(reads.length > 0, name);
    for (const read of reads) t.regex(read.split(/GROUP BY|ORDER BY/)[0]!, /WHERE .*metrics_level = 'step'/, name);
  }
});

test('cpu_utilization_pct is described as the estimate it is', (t) => {
  t.regex(BUILTIN_METRICS.cpu_utilization_pct.description, /^Estimated\b/);
  t.regex(BUILTIN_METRICS.cpu_utilization_pct.description, /not the host gauge/);
});
