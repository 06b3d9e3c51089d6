import {
  CancelStatementCommand,
  DescribeStatementCommand,
  ExecuteStatementCommand,
  GetStatementResultCommand,
  type ColumnMetadata,
  type ExecuteStatementCommandInput,
  type Field,
  type RedshiftDataClient,
} from '@aws-sdk/client-redshift-data';
import type { RedshiftTarget } from '../environments.js';
import type { Clock } from '../port.js';
import { rowsFromRecords, type ResultRow } from './result-rows.js';

/**
 * One SQL statement through the Data API: ExecuteStatement with named parameters, DescribeStatement
 * polled with exponential backoff until it settles or the overall timeout passes, then every page
 * of GetStatementResult. Values only ever travel as parameters; the SQL text is fixed.
 */

export interface SqlStatement {
  /** Shown as StatementName in the warehouse's own history, to find our statements there. */
  name: string;
  sql: string;
  parameters: Readonly<Record<string, string | number>>;
}

export interface PollBackoff {
  initialDelayMs: number;
  maxDelayMs: number;
  factor: number;
}

export interface StatementRunnerOptions {
  client: Pick<RedshiftDataClient, 'send'>;
  /** From ExecuteStatement to the last result page. */
  timeoutMs: number;
  backoff: PollBackoff;
  sleep: (ms: number) => Promise<void>;
  now: Clock;
}

/** The statement reached FAILED or ABORTED; `detail` is the warehouse's text, for the log only. */
export class StatementFailedError extends Error {
  override readonly name = 'StatementFailedError';
  constructor(
    readonly status: 'FAILED' | 'ABORTED',
    readonly detail: string,
  ) {
    super(`statement ${status.toLowerCase()}: ${detail}`);
  }
}

export class StatementTimeoutError extends Error {
  override readonly name = 'StatementTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`statement did not finish within ${timeoutMs} ms`);
  }
}

export const defaultBackoff: PollBackoff = { initialDelayMs: 100, maxDelayMs: 2000, factor: 2 };

export const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function targetParameters(target: RedshiftTarget): Partial<ExecuteStatementCommandInput> {
  if (target.kind === 'provisioned') {
    return target.secret_arn
      ? { ClusterIdentifier: target.cluster_identifier, Database: target.database, SecretArn: target.secret_arn }
      : { ClusterIdentifier: target.cluster_identifier, Database: target.database, DbUser: target.db_user };
  }
  return {
    WorkgroupName: target.workgroup_name,
    Database: target.database,
    ...(target.secret_arn ? { SecretArn: target.secret_arn } : {}),
  };
}

/** The delays between polls: initial, initial*factor, ... capped at maxDelayMs. */
export function pollDelays(backoff: PollBackoff): () => number {
  let delay = backoff.initialDelayMs;
  return () => {
    const current = delay;
    delay = Math.min(backoff.maxDelayMs, delay * backoff.factor);
    return current;
  };
}

export async function runStatement(
  target: RedshiftTarget,
  statement: SqlStatement,
  options: StatementRunnerOptions,
): Promise<ResultRow[]> {
  const { client, now } = options;
  const deadline = now().getTime() + options.timeoutMs;
  const parameters = Object.entries(statement.parameters).map(([name, value]) => ({ name, value: String(value) }));
  const executed = await client.send(
    new ExecuteStatementCommand({
      ...targetParameters(target),
      Sql: statement.sql,
      StatementName: statement.name,
      ...(parameters.length > 0 ? { Parameters: parameters } : {}),
    }),
  );
  const id = executed.Id;
  if (!id) throw new Error('ExecuteStatement returned no statement id');

  const nextDelay = pollDelays(options.backoff);
  for (;;) {
    const remaining = deadline - now().getTime();
    if (remaining <= 0) {
      // Best effort: a statement we stopped waiting for should not keep a slot busy.
      await client.send(new CancelStatementCommand({ Id: id })).catch(() => undefined);
      throw new StatementTimeoutError(options.timeoutMs);
    }
    await options.sleep(Math.min(nextDelay(), remaining));
    const described = await client.send(new DescribeStatementCommand({ Id: id }));
    if (described.Status === 'FINISHED') {
      return described.HasResultSet === false ? [] : readAllPages(id, deadline, options);
    }
    if (described.Status === 'FAILED' || described.Status === 'ABORTED') {
      throw new StatementFailedError(described.Status, described.Error ?? 'no detail');
    }
  }
}

async function readAllPages(
  id: string,
  deadline: number,
  { client, now, timeoutMs }: StatementRunnerOptions,
): Promise<ResultRow[]> {
  let columns: ColumnMetadata[] | undefined;
  const records: Field[][] = [];
  let nextToken: string | undefined;
  do {
    if (now().getTime() > deadline) throw new StatementTimeoutError(timeoutMs);
    const page = await client.send(
      new GetStatementResultCommand({ Id: id, ...(nextToken ? { NextToken: nextToken } : {}) }),
    );
    columns ??= page.ColumnMetadata;
    records.push(...(page.Records ?? []));
    nextToken = page.NextToken || undefined;
  } while (nextToken);
  return rowsFromRecords(columns ?? [], records);
}
