import { CostQueryError, type CostDataStatus } from '../port.js';
import type { AthenaRow } from './athena-runner.js';
import type { CurLayout, CurVersion } from './cur-layout.js';
import { dataStatusQuery, tableColumnsQuery, type CurQuery } from './cur-sql.js';

/**
 * What the Athena adapter learns about its CUR table by asking Athena: which CUR version it is
 * (once, when not configured) and whether AWS is rewriting it right now (cached for a minute).
 */

export type CurVersionSetting = 'auto' | CurVersion;

type Run = (query: CurQuery) => Promise<AthenaRow[]>;

/**
 * CUR 2.0 has the `resource_tags` map column; CUR 1 has none (its tags are separate columns).
 * Partition columns: CUR 1's integration adds `year`/`month`, CUR 2.0's `billing_period`.
 */
export function layoutFromColumns(
  columns: string[],
  tagging: { environmentColumn: string; environmentTag: string },
  table: string,
): CurLayout {
  const names = new Set(columns.map((column) => column.toLowerCase()));
  if (names.size === 0)
    throw new CostQueryError(
      'failed',
      `the CUR table ${table} was not found (information_schema lists no columns for it)`,
    );
  const version: CurVersion = names.has('resource_tags') ? 2 : 1;
  const partitioned = version === 2 ? names.has('billing_period') : names.has('year') && names.has('month');
  return { version, ...tagging, partitioned };
}

/** The table's layout: configured, or detected by one metadata query whose answer is kept (a failure is not). */
export function curLayoutResolver(
  setting: CurVersionSetting,
  tagging: { environmentColumn: string; environmentTag: string },
  target: { database: string; table: string },
  run: Run,
): () => Promise<CurLayout> {
  if (setting !== 'auto') {
    const fixed: CurLayout = { version: setting, ...tagging, partitioned: true };
    return async () => fixed;
  }
  let detected: Promise<CurLayout> | undefined;
  return () => {
    detected ??= run(tableColumnsQuery(target.database, target.table)).then(
      (rows) =>
        layoutFromColumns(
          rows.map((row) => String(row['column_name'] ?? '')),
          tagging,
          target.table,
        ),
      (error: unknown) => {
        detected = undefined;
        throw error;
      },
    );
    return detected;
  };
}

const STATUS_TTL_MS = 60_000;

/**
 * cost_and_usage_data_status (created by the CUR Athena integration, or by hand as AWS's page
 * shows) holds one row: READY or UPDATING. No table, or no status table configured, reads as
 * `unknown`; an answer is then given without a warning.
 * https://docs.aws.amazon.com/cur/latest/userguide/create-manual-cur-table.html
 */
export function dataStatusReader(
  statusTable: string | undefined,
  run: Run,
  now: () => number,
): () => Promise<CostDataStatus> {
  if (!statusTable) return async () => ({ state: 'unknown', detail: 'no status table configured' });
  let cached: { at: number; status: Promise<CostDataStatus> } | undefined;
  const read = async (): Promise<CostDataStatus> => {
    try {
      const rows = await run(dataStatusQuery(statusTable));
      const states = rows.map((row) => String(row['status'] ?? '').toUpperCase());
      if (states.includes('UPDATING')) return { state: 'updating' };
      if (states.length > 0 && states.every((state) => state === 'READY')) return { state: 'ready' };
      return { state: 'unknown', detail: `${statusTable} holds ${JSON.stringify(states)}` };
    } catch (error) {
      return { state: 'unknown', detail: error instanceof Error ? error.message : String(error) };
    }
  };
  return () => {
    if (!cached || now() - cached.at >= STATUS_TTL_MS) cached = { at: now(), status: read() };
    return cached.status;
  };
}
