import {
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
  type AthenaClient,
  type ColumnInfo,
} from '@aws-sdk/client-athena';
import { CostQueryError } from '../port.js';

/**
 * Runs one Athena query to completion: StartQueryExecution in the work group with the result
 * location, polls GetQueryExecution with exponential backoff under an overall deadline, then
 * reads every GetQueryResults page. Time comes in through `now`/`sleep` so tests run the
 * polling on virtual time.
 */

export type AthenaValue = string | number | boolean | null;
export type AthenaRow = Record<string, AthenaValue>;

export interface AthenaRunnerOptions {
  client: AthenaClient;
  database: string;
  workGroup: string;
  outputLocation: string;
  catalog?: string;
  /** Overall limit from start to the last result page (default 60 s). */
  timeoutMs?: number;
  /** First poll delay, doubled after each poll up to `maxPollMs` (defaults 200 ms, 5 s). */
  firstPollMs?: number;
  maxPollMs?: number;
  /** Rows per GetQueryResults page (Athena allows up to 1000). */
  pageSize?: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

const NUMERIC = new Set(['tinyint', 'smallint', 'integer', 'int', 'bigint', 'float', 'real', 'double', 'decimal']);

/**
 * Athena returns every value as VarCharValue text; the column type in ResultSetMetadata says
 * what it is. A missing VarCharValue is SQL NULL (an empty string is a real empty varchar).
 */
export function convertValue(text: string | undefined, column: ColumnInfo): AthenaValue {
  if (text === undefined) return null;
  const type = (column.Type ?? 'varchar').toLowerCase().replace(/\(.*$/, '');
  if (NUMERIC.has(type)) return Number(text);
  if (type === 'boolean') return text === 'true';
  // date stays 'YYYY-MM-DD'; timestamps, varchar and the rest stay as Athena wrote them.
  return text;
}

export async function runAthenaQuery(
  options: AthenaRunnerOptions,
  sql: string,
  parameters: string[],
): Promise<AthenaRow[]> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = options.now() + timeoutMs;
  const { client } = options;

  const started = await unavailableOnError(() =>
    client.send(
      new StartQueryExecutionCommand({
        QueryString: sql,
        QueryExecutionContext: { Database: options.database, ...(options.catalog ? { Catalog: options.catalog } : {}) },
        WorkGroup: options.workGroup,
        ResultConfiguration: { OutputLocation: options.outputLocation },
        ...(parameters.length > 0 ? { ExecutionParameters: parameters } : {}),
      }),
    ),
  );
  const id = started.QueryExecutionId;
  if (!id) throw new CostQueryError('unavailable', 'Athena returned no query execution id');

  let delay = options.firstPollMs ?? 200;
  for (;;) {
    const described = await unavailableOnError(() =>
      client.send(new GetQueryExecutionCommand({ QueryExecutionId: id })),
    );
    const status = described.QueryExecution?.Status;
    const state = status?.State;
    if (state === 'SUCCEEDED') break;
    if (state === 'FAILED' || state === 'CANCELLED') {
      const reason = status?.AthenaError?.ErrorMessage ?? status?.StateChangeReason ?? `query ${state.toLowerCase()}`;
      throw new CostQueryError(state === 'FAILED' ? 'failed' : 'cancelled', reason);
    }
    const remaining = deadline - options.now();
    if (remaining <= 0) {
      // Best effort: a query nobody will read should not keep scanning (and billing) the CUR.
      await client.send(new StopQueryExecutionCommand({ QueryExecutionId: id })).catch(() => undefined);
      throw new CostQueryError('timeout', `query ${id} still ${state ?? 'unknown'} after ${timeoutMs} ms`);
    }
    await options.sleep(Math.min(delay, remaining));
    delay = Math.min(delay * 2, options.maxPollMs ?? 5_000);
  }

  const rows: AthenaRow[] = [];
  let nextToken: string | undefined;
  let firstPage = true;
  do {
    const page = await unavailableOnError(() =>
      client.send(
        new GetQueryResultsCommand({
          QueryExecutionId: id,
          NextToken: nextToken,
          MaxResults: options.pageSize ?? 1000,
        }),
      ),
    );
    const columns = page.ResultSet?.ResultSetMetadata?.ColumnInfo ?? [];
    // For a SELECT, the first row of the first page repeats the column names.
    const data = (page.ResultSet?.Rows ?? []).slice(firstPage ? 1 : 0);
    for (const row of data) {
      const values = row.Data ?? [];
      rows.push(
        Object.fromEntries(
          columns.map((column, index) => [
            column.Name ?? `_${index}`,
            convertValue(values[index]?.VarCharValue, column),
          ]),
        ),
      );
    }
    firstPage = false;
    nextToken = page.NextToken;
    if (nextToken && options.now() > deadline)
      throw new CostQueryError('timeout', `query ${id} results not read within ${timeoutMs} ms`);
  } while (nextToken);
  return rows;
}

/** Transport and service errors (throttling, access denied, bad SQL at start) become typed errors. */
async function unavailableOnError<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof CostQueryError) throw error;
    const name = error instanceof Error ? error.name : 'Error';
    const message = error instanceof Error ? error.message : String(error);
    throw new CostQueryError(name === 'InvalidRequestException' ? 'failed' : 'unavailable', `${name}: ${message}`);
  }
}
