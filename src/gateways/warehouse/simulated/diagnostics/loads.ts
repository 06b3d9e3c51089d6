import type { LoadError, ScalingPeriod } from '../../diagnostics.js';
import type { ClusterSnapshot } from '../cluster-state.js';
import { randomFrom, seedOf } from '../prng.js';
import { queriesOverlapping, queryIdOf, SLOT_SECONDS } from '../workload.js';
import { columnsOf } from './table-columns.js';

/**
 * COPY errors and concurrency scaling of the simulated clusters, from the same seeded workload.
 *
 * Loads land files in the staging tables; per cluster and hour a COPY may reject a few lines
 * (about one hour in three), each with one of Redshift's load error codes.
 *
 * Concurrency scaling: on the main cluster, read queries that waited in their queue for more than
 * CS_QUEUE_SECONDS are the ones a scaling cluster took; a scaling cluster runs while such queries
 * execute, and is billed per second with a one-minute minimum per usage period.
 */

const HOUR = 3600;
const CS_QUEUE_SECONDS = 30;
/** Queries closer together than this keep one scaling cluster busy (one usage period). */
const CS_IDLE_GAP_SECONDS = 60;

const LOAD_ERRORS: readonly { code: number; message: (value: string) => string; value: (n: number) => string }[] = [
  {
    code: 1204,
    message: () => 'Input data exceeded the acceptable range for the data type',
    value: (n) => String(9_000_000_000 + n),
  },
  { code: 1205, message: () => 'Invalid Date Format - length must be 10 or more', value: () => '3/7/26' },
  {
    code: 1206,
    message: () => 'Invalid timestamp format or value [YYYY-MM-DD HH24:MI:SS]',
    value: () => '2026-13-01 25:61:00',
  },
  { code: 1207, message: (v) => `Invalid digit, Value '${v.charAt(0)}', Pos 0, Type: Long`, value: () => 'N/A' },
  { code: 1214, message: () => 'Delimiter not found', value: () => '' },
  { code: 1216, message: () => 'Invalid quote formatting for CSV', value: () => '"unterminated' },
  {
    code: 1220,
    message: () => 'String contains invalid or unsupported UTF8 codepoints. Bad UTF8 hex sequence: ff (error 3)',
    value: () => 'caf\ufffd',
  },
  { code: 1202, message: () => 'Extra column(s) found', value: () => '' },
];

const iso = (seconds: number) => new Date(Math.floor(seconds * 1000)).toISOString();
const datePath = (seconds: number) => iso(seconds).slice(0, 10).replace(/-/g, '/');

export function loadErrorsBetween(snapshots: readonly ClusterSnapshot[], from: number, at: number): LoadError[] {
  const errors: LoadError[] = [];
  for (const { cluster, tables } of snapshots) {
    const staging = tables.filter((t) => t.kind === 'stage');
    const targets = staging.length > 0 ? staging : tables;
    if (targets.length === 0) continue;
    for (let hour = Math.floor(from / HOUR); hour <= Math.floor(at / HOUR); hour++) {
      const random = randomFrom(seedOf(cluster.id, 'load-errors', hour));
      if (!random.chance(0.35)) continue;
      const table = random.pick(targets);
      const time = hour * HOUR + random.next() * HOUR;
      if (time < from || time > at) continue;
      const queryId = queryIdOf(cluster, Math.floor(time / SLOT_SECONDS), random.int(0, 7));
      const file = `s3://${cluster.id}-landing/${table.name}/${datePath(time)}/part-${String(random.int(0, 63)).padStart(4, '0')}.csv.gz`;
      const columns = columnsOf(table);
      const rejected = random.int(1, 5);
      for (let i = 0; i < rejected; i++) {
        const kind = random.pick(LOAD_ERRORS);
        const column = random.pick(columns);
        const value = kind.value(random.int(0, 999));
        errors.push({
          cluster_id: cluster.id,
          query_id: queryId,
          time: iso(time),
          schema: table.schema,
          table_name: table.name,
          file_name: file,
          line_number: random.int(2, 250_000),
          column_name: column.name,
          column_type: column.dataType.replace(/\(.*$/, ''),
          error_code: kind.code,
          error_message: kind.message(value),
          raw_value: value,
        });
      }
    }
  }
  return errors.sort(
    (a, b) => b.time.localeCompare(a.time) || b.query_id - a.query_id || a.line_number - b.line_number,
  );
}

export function scalingPeriodsBetween(
  snapshots: readonly ClusterSnapshot[],
  from: number,
  at: number,
): ScalingPeriod[] {
  const periods: ScalingPeriod[] = [];
  for (const { cluster, tables } of snapshots) {
    if (cluster.role !== 'main') continue;
    const routed = queriesOverlapping(cluster, tables, from, at)
      .filter((q) => q.kind !== 'etl' && q.execStartAt - q.submittedAt > CS_QUEUE_SECONDS && q.execStartAt <= at)
      .map((q) => ({ start: Math.max(from, q.execStartAt), end: Math.min(at, q.endAt) }))
      .filter((span) => span.end > span.start)
      .sort((a, b) => a.start - b.start);
    let current: { start: number; end: number; queries: number } | undefined;
    const close = () => {
      if (!current) return;
      periods.push({
        cluster_id: cluster.id,
        start_time: iso(current.start),
        end_time: iso(current.end),
        queries: current.queries,
        usage_seconds: Math.max(60, Math.round(current.end - current.start)),
      });
    };
    for (const span of routed) {
      if (current && span.start <= current.end + CS_IDLE_GAP_SECONDS) {
        current.end = Math.max(current.end, span.end);
        current.queries += 1;
      } else {
        close();
        current = { ...span, queries: 1 };
      }
    }
    close();
  }
  return periods.sort((a, b) => a.start_time.localeCompare(b.start_time) || a.cluster_id.localeCompare(b.cluster_id));
}
