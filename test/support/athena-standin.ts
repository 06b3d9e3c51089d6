import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readJson, reply } from './aws-json-protocol.js';

/**
 * A loopback stand-in for Amazon Athena (AWS JSON 1.1: POST /, X-Amz-Target
 * AmazonAthena.<Operation>). It records each query with its parameters, work group and result
 * location, walks it QUEUED → RUNNING → SUCCEEDED (or FAILED/CANCELLED when scripted) one state
 * per GetQueryExecution, and pages results with the header row on the first page only, as
 * Athena does. It runs no SQL: `curAnswerer` (athena-cur-table.ts) recognises the adapter's CUR
 * queries and answers them from the same generated bill the embedded store uses.
 */

export type StandinValue = string | number | boolean | null;

export interface RecordedQuery {
  id: string;
  sql: string;
  parameters: string[];
  workGroup?: string;
  outputLocation?: string;
  database?: string;
}

export interface QueryScript {
  columns?: { name: string; type: string }[];
  rows?: StandinValue[][];
  /** Data rows per page (the header shares the first page, like Athena's MaxResults). */
  pageSize?: number;
  /** GetQueryExecution answers QUEUED once, then RUNNING this many times before the outcome. */
  runningPolls?: number;
  outcome?: 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  reason?: string;
}

export interface ErrorReply {
  status?: number;
  type: string;
  message: string;
}

export interface AthenaStandin {
  url: string;
  queries: RecordedQuery[];
  operations: string[];
  stopped: string[];
  script(handler: (query: RecordedQuery) => QueryScript | ErrorReply): void;
  close(): Promise<void>;
}

interface LiveQuery {
  recorded: RecordedQuery;
  script: QueryScript;
  polls: number;
}

const OPERATIONS = ['StartQueryExecution', 'GetQueryExecution', 'GetQueryResults', 'StopQueryExecution'];

const cell = (value: StandinValue) => (value === null ? {} : { VarCharValue: String(value) });

export async function startAthenaStandin(): Promise<AthenaStandin> {
  const live = new Map<string, LiveQuery>();
  let handler: (query: RecordedQuery) => QueryScript | ErrorReply = () => ({});
  let nextId = 1;
  const state: Omit<AthenaStandin, 'url' | 'close'> = {
    queries: [],
    operations: [],
    stopped: [],
    script: (next) => {
      handler = next;
    },
  };
  const fail = (response: ServerResponse, failure: ErrorReply) =>
    reply(response, failure.status ?? 400, { __type: failure.type, Message: failure.message }, failure.type);

  const handle = (operation: string, body: Record<string, unknown>, response: ServerResponse) => {
    if (operation === 'StartQueryExecution') {
      const recorded: RecordedQuery = {
        id: `query-${nextId++}`,
        sql: String(body['QueryString']),
        parameters: (body['ExecutionParameters'] as string[] | undefined) ?? [],
        workGroup: body['WorkGroup'] as string | undefined,
        outputLocation: (body['ResultConfiguration'] as { OutputLocation?: string } | undefined)?.OutputLocation,
        database: (body['QueryExecutionContext'] as { Database?: string } | undefined)?.Database,
      };
      state.queries.push(recorded);
      const scripted = handler(recorded);
      if ('type' in scripted) return fail(response, scripted);
      live.set(recorded.id, { recorded, script: scripted, polls: 0 });
      return reply(response, 200, { QueryExecutionId: recorded.id });
    }
    const query = live.get(String(body['QueryExecutionId']));
    if (!query) return fail(response, { type: 'InvalidRequestException', message: 'QueryExecution not found' });
    if (operation === 'StopQueryExecution') {
      state.stopped.push(query.recorded.id);
      return reply(response, 200, {});
    }
    if (operation === 'GetQueryExecution') {
      query.polls += 1;
      const running = query.script.runningPolls ?? 1;
      const status =
        query.polls === 1 ? 'QUEUED' : query.polls <= 1 + running ? 'RUNNING' : (query.script.outcome ?? 'SUCCEEDED');
      const failed = status === 'FAILED' || status === 'CANCELLED';
      return reply(response, 200, {
        QueryExecution: {
          QueryExecutionId: query.recorded.id,
          Query: query.recorded.sql,
          WorkGroup: query.recorded.workGroup,
          Status: {
            State: status,
            SubmissionDateTime: 1_700_000_000,
            ...(failed ? { StateChangeReason: query.script.reason ?? 'query failed' } : {}),
            ...(status === 'FAILED'
              ? {
                  AthenaError: {
                    ErrorCategory: 2,
                    ErrorType: 1000,
                    ErrorMessage: query.script.reason ?? 'query failed',
                  },
                }
              : {}),
          },
        },
      });
    }
    const columns = query.script.columns ?? [];
    const rows = query.script.rows ?? [];
    const pageSize = query.script.pageSize ?? 1000;
    const page = body['NextToken'] ? Number(String(body['NextToken']).replace('page-', '')) : 0;
    const pageRows = rows.slice(page * pageSize, (page + 1) * pageSize).map((row) => ({ Data: row.map(cell) }));
    const header = { Data: columns.map((column) => ({ VarCharValue: column.name })) };
    const more = (page + 1) * pageSize < rows.length;
    return reply(response, 200, {
      ResultSet: {
        Rows: page === 0 ? [header, ...pageRows] : pageRows,
        ResultSetMetadata: {
          ColumnInfo: columns.map((c) => ({ CatalogName: 'hive', Name: c.name, Label: c.name, Type: c.type })),
        },
      },
      ...(more ? { NextToken: `page-${page + 1}` } : {}),
    });
  };

  const server = createServer((request, response) => {
    const target = String(request.headers['x-amz-target'] ?? '');
    const operation = target.replace(/^AmazonAthena\./, '');
    readJson(request)
      .then((body) => {
        state.operations.push(operation);
        if (!OPERATIONS.includes(operation))
          return fail(response, { type: 'UnknownOperationException', message: target });
        return handle(operation, body, response);
      })
      .catch((error: unknown) => reply(response, 500, { __type: 'InternalServerException', Message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...state,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export { curAnswerer, standinColumns, standinStoreOptions, type StandinCurTable } from './athena-cur-table.js';
