import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readJson, reply } from './aws-json-protocol.js';

/**
 * A loopback stand-in for the Redshift Data API (AWS JSON 1.1: POST /, X-Amz-Target
 * RedshiftData.<Operation>). It records every statement and the parameters bound to it, and a
 * test scripts how each statement behaves: its result (split into pages), how many polls it
 * stays STARTED, whether it ends FAILED or ABORTED, or an error reply such as ValidationException.
 * It proves the adapter drives the real AWS client correctly; it runs no SQL.
 *
 * It does enforce one rule of the real warehouse: a database user that is not a superuser may not
 * read the superuser-only system views. "STV_NODE_STORAGE_CAPACITY is visible only to
 * superusers" (https://docs.aws.amazon.com/redshift/latest/dg/r_STV_NODE_STORAGE_CAPACITY.html;
 * the same sentence is on each view's page), and Redshift refuses the statement with
 * `ERROR: permission denied for relation <view>` (SQLSTATE 42501, as reported in
 * github.com/awslabs/amazon-redshift-utils/issues/648). Through the Data API the statement is
 * accepted and then ends FAILED with that text as DescribeStatement's Error. The refusal is lifted
 * by `GRANT SELECT ON <view>` or by a system role that may "access catalog or system tables"
 * (sys:monitor, sys:operator, sys:dba which inherits sys:operator, sys:superuser:
 * https://docs.aws.amazon.com/redshift/latest/dg/r_roles-default.html). Which views are
 * superuser-only is written here from each view's own page, apart from the adapter's list, so a view
 * the adapter forgets is still refused here (test/warehouse-redshift-permissions.test.ts compares them).
 */

/** The system views the platform reads whose AWS page says "visible only to superusers". */
export const STANDIN_SUPERUSER_ONLY_VIEWS: readonly string[] = [
  'stv_node_storage_capacity',
  'svv_table_info',
  'stl_commit_stats',
  'svl_user_info',
  'stv_wlm_service_class_config',
  'svcs_concurrency_scaling_usage',
  'sys_serverless_usage',
  'sys_transaction_history',
];

/** Roles whose ACCESS SYSTEM TABLE permission lets a regular user read the superuser-only views. */
const SYSTEM_TABLE_ROLES = new Set(['sys:monitor', 'sys:operator', 'sys:dba', 'sys:superuser']);

/** Who the statements run as. The default is a superuser, which every view admits. */
export interface StandinDatabaseUser {
  superuser: boolean;
  /** Views this user was granted SELECT on (`GRANT SELECT ON svv_table_info TO monitor`). */
  selectGrants?: readonly string[];
  /** Roles granted to the user (`GRANT ROLE sys:monitor TO monitor`). */
  roles?: readonly string[];
}

/** The first superuser-only view the statement reads that this user may not, if any. */
export function deniedViewFor(user: StandinDatabaseUser, sql: string): string | undefined {
  if (user.superuser || (user.roles ?? []).some((role) => SYSTEM_TABLE_ROLES.has(role))) return undefined;
  const granted = new Set((user.selectGrants ?? []).map((view) => view.toLowerCase()));
  return STANDIN_SUPERUSER_ONLY_VIEWS.find((view) => !granted.has(view) && new RegExp(`\\b${view}\\b`, 'i').test(sql));
}

export type StandinValue = string | number | boolean | null;

export interface RecordedStatement {
  id: string;
  sql: string;
  statementName?: string;
  parameters: Record<string, string>;
  clusterIdentifier?: string;
  workgroupName?: string;
  database?: string;
  dbUser?: string;
  secretArn?: string;
}

export interface StatementScript {
  columns?: string[];
  rows?: StandinValue[][];
  /** Rows per GetStatementResult page; every row on one page when absent. */
  pageSize?: number;
  /** DescribeStatement answers PICKED/STARTED this many times before the outcome. */
  pollsBeforeDone?: number;
  outcome?: 'FINISHED' | 'FAILED' | 'ABORTED';
  /** DescribeStatement's Error text for a FAILED statement. */
  error?: string;
}

export interface ErrorReply {
  status?: number;
  type: string;
  message: string;
}

type Operation = 'ExecuteStatement' | 'DescribeStatement' | 'GetStatementResult' | 'CancelStatement';

interface LiveStatement {
  recorded: RecordedStatement;
  script: StatementScript;
  polls: number;
}

export interface RedshiftDataStandin {
  url: string;
  /** Every ExecuteStatement received, in order. */
  executed: RecordedStatement[];
  /** Every request's operation, in order. */
  operations: Operation[];
  cancelled: string[];
  /** Decides how each executed statement behaves (default: FINISHED with no rows). */
  script(handler: (statement: RecordedStatement) => StatementScript | ErrorReply): void;
  /** Runs every later statement as this database user (default: a superuser). */
  actAs(user: StandinDatabaseUser): void;
  /** The next request of this operation gets this error reply instead. */
  failNext(operation: Operation, reply: ErrorReply): void;
  close(): Promise<void>;
}

const isErrorReply = (value: StatementScript | ErrorReply): value is ErrorReply => 'type' in value;

function field(value: StandinValue): Record<string, unknown> {
  if (value === null) return { isNull: true };
  if (typeof value === 'boolean') return { booleanValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { longValue: value } : { doubleValue: value };
  return { stringValue: value };
}

export async function startRedshiftDataStandin(): Promise<RedshiftDataStandin> {
  const statements = new Map<string, LiveStatement>();
  const pendingFailures = new Map<Operation, ErrorReply[]>();
  let handler: (statement: RecordedStatement) => StatementScript | ErrorReply = () => ({});
  let nextId = 1;
  let databaseUser: StandinDatabaseUser = { superuser: true };

  const standin: Omit<RedshiftDataStandin, 'url' | 'close'> = {
    executed: [],
    operations: [],
    cancelled: [],
    script: (next) => {
      handler = next;
    },
    actAs: (user) => {
      databaseUser = user;
    },
    failNext: (operation, failure) => {
      pendingFailures.set(operation, [...(pendingFailures.get(operation) ?? []), failure]);
    },
  };

  const fail = (response: ServerResponse, failure: ErrorReply) =>
    reply(response, failure.status ?? 400, { __type: failure.type, message: failure.message }, failure.type);

  const handle = async (operation: Operation, body: Record<string, unknown>, response: ServerResponse) => {
    const queued = pendingFailures.get(operation)?.shift();
    if (queued) return fail(response, queued);
    switch (operation) {
      case 'ExecuteStatement': {
        const recorded: RecordedStatement = {
          id: `standin-${nextId++}`,
          sql: String(body['Sql']),
          statementName: body['StatementName'] as string | undefined,
          parameters: Object.fromEntries(
            ((body['Parameters'] as { name: string; value: string }[] | undefined) ?? []).map((p) => [p.name, p.value]),
          ),
          clusterIdentifier: body['ClusterIdentifier'] as string | undefined,
          workgroupName: body['WorkgroupName'] as string | undefined,
          database: body['Database'] as string | undefined,
          dbUser: body['DbUser'] as string | undefined,
          secretArn: body['SecretArn'] as string | undefined,
        };
        standin.executed.push(recorded);
        const scripted = handler(recorded);
        if (isErrorReply(scripted)) return fail(response, scripted);
        const denied = deniedViewFor(databaseUser, recorded.sql);
        const script: StatementScript = denied
          ? { outcome: 'FAILED', error: `ERROR: permission denied for relation ${denied}` }
          : scripted;
        statements.set(recorded.id, { recorded, script, polls: 0 });
        return reply(response, 200, { Id: recorded.id, CreatedAt: 1_700_000_000, Database: recorded.database });
      }
      case 'DescribeStatement': {
        const live = statements.get(String(body['Id']));
        if (!live) return fail(response, { type: 'ResourceNotFoundException', message: 'Query does not exist.' });
        live.polls += 1;
        const done = live.polls > (live.script.pollsBeforeDone ?? 0);
        const status = done ? (live.script.outcome ?? 'FINISHED') : live.polls === 1 ? 'PICKED' : 'STARTED';
        return reply(response, 200, {
          Id: live.recorded.id,
          Status: status,
          HasResultSet: live.script.columns !== undefined,
          ResultRows: live.script.rows?.length ?? 0,
          ...(status === 'FAILED' ? { Error: live.script.error ?? 'ERROR: statement failed' } : {}),
        });
      }
      case 'GetStatementResult': {
        const live = statements.get(String(body['Id']));
        if (!live) return fail(response, { type: 'ResourceNotFoundException', message: 'Query does not exist.' });
        const rows = live.script.rows ?? [];
        const pageSize = live.script.pageSize ?? Math.max(1, rows.length);
        const page = body['NextToken'] ? Number(body['NextToken']) : 0;
        const more = (page + 1) * pageSize < rows.length;
        return reply(response, 200, {
          ColumnMetadata: (live.script.columns ?? []).map((name) => ({ name, label: name, typeName: 'varchar' })),
          Records: rows.slice(page * pageSize, (page + 1) * pageSize).map((row) => row.map(field)),
          TotalNumRows: rows.length,
          ...(more ? { NextToken: String(page + 1) } : {}),
        });
      }
      case 'CancelStatement':
        standin.cancelled.push(String(body['Id']));
        return reply(response, 200, { Status: true });
    }
  };

  const server = createServer((request, response) => {
    const target = String(request.headers['x-amz-target'] ?? '');
    const operation = target.replace(/^RedshiftData\./, '') as Operation;
    readJson(request)
      .then((body) => {
        standin.operations.push(operation);
        if (!['ExecuteStatement', 'DescribeStatement', 'GetStatementResult', 'CancelStatement'].includes(operation)) {
          return fail(response, { type: 'UnknownOperationException', message: `no such operation: ${target}` });
        }
        return handle(operation, body, response);
      })
      .catch((error: unknown) => reply(response, 500, { __type: 'InternalServerException', message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    ...standin,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
