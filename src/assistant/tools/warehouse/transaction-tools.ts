import { z } from 'zod';
import { LOAD_ERRORS_CAP, WORST_COMMITS_CAP } from '../../../gateways/warehouse/diagnostics.js';
import type { WarehouseGateway } from '../../../gateways/warehouse/port.js';
import { defineTool } from '../../tool.js';
import { capQueryText, clusterId, identifier, isoTime, limit, lookbackHours, ofCluster } from './shared.js';

export function lockWaitsTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'lock_waits',
    family: 'warehouse',
    description:
      'Sessions blocked right now waiting for a table lock, each with the session that holds it: table, waiting and blocking pid and user, lock modes, how long the waiter has waited and the blocker has been open, and both query texts. An empty list means nothing is blocked. A long-open blocker can be ended with PG_TERMINATE_BACKEND(pid) by an administrator (this tool changes nothing).',
    input: z
      .object({
        table_name: identifier('table name').optional(),
        cluster_id: clusterId.optional(),
        limit: limit(100, 10),
      })
      .strict(),
    output: z.object({
      total: z.number().int().min(0),
      blocking_pids: z.array(z.number().int()).describe('sessions that block others, most blocked sessions first'),
      waits: z.array(
        z.object({
          cluster_id: z.string(),
          schema: z.string(),
          table_name: z.string(),
          waiting_pid: z.number().int(),
          waiting_user: z.string(),
          requested_lock: z.string(),
          waiting_seconds: z.number().int(),
          waiting_query_text: z.string(),
          blocking_pid: z.number().int(),
          blocking_user: z.string(),
          held_lock: z.string(),
          blocking_seconds: z.number().int(),
          blocking_query_text: z.string(),
        }),
      ),
    }),
    example: {},
    async run(input, { envId }) {
      const waits = ofCluster(await warehouse.lockWaits(envId), input.cluster_id).filter(
        (wait) => input.table_name === undefined || wait.table_name.toLowerCase() === input.table_name.toLowerCase(),
      );
      const blockers = new Map<number, number>();
      for (const wait of waits) blockers.set(wait.blocking_pid, (blockers.get(wait.blocking_pid) ?? 0) + 1);
      return {
        total: waits.length,
        blocking_pids: [...blockers.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([pid]) => pid),
        waits: waits.slice(0, input.limit).map((wait) => ({
          ...wait,
          waiting_query_text: capQueryText(wait.waiting_query_text).query_text,
          blocking_query_text: capQueryText(wait.blocking_query_text).query_text,
        })),
      };
    },
  });
}

export function commitQueueTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'commit_queue',
    family: 'warehouse',
    description: `The commit queue over the look-back: per cluster, how many commits, the average and longest wait in the commit queue, the average and longest commit, the longest queue; and the ${WORST_COMMITS_CAP} worst commits (transaction id, user, wait, duration). Many small commits queue behind each other on the leader; batching writes helps. Serverless reports commit durations but no queue (those fields are null).`,
    input: z.object({ lookback_hours: lookbackHours, limit: limit(WORST_COMMITS_CAP, 10) }).strict(),
    output: z.object({
      lookback_hours: z.number().int(),
      summaries: z.array(
        z.object({
          cluster_id: z.string(),
          commits: z.number().int().min(0),
          avg_queue_seconds: z.number().nullable(),
          max_queue_seconds: z.number().nullable(),
          avg_commit_seconds: z.number(),
          max_commit_seconds: z.number(),
          max_queue_length: z.number().int().nullable(),
        }),
      ),
      worst: z.array(
        z.object({
          cluster_id: z.string(),
          xid: z.number().int(),
          user_name: z.string(),
          queued_at: isoTime,
          queue_seconds: z.number().nullable(),
          commit_seconds: z.number(),
          queue_length: z.number().int().nullable(),
        }),
      ),
    }),
    example: { lookback_hours: 24 },
    async run(input, { envId }) {
      const report = await warehouse.commitQueue(envId, input.lookback_hours);
      return {
        lookback_hours: input.lookback_hours,
        summaries: report.summaries,
        worst: report.worst.slice(0, input.limit),
      };
    },
  });
}

export function loadErrorsTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'load_errors',
    family: 'warehouse',
    description: `COPY (load) errors over the look-back, newest first (at most ${LOAD_ERRORS_CAP}): table, file, line, column and type, the error code and reason, and the rejected value; with a count per table and per error. Use it when loads fail or rows go missing.`,
    input: z
      .object({
        lookback_hours: lookbackHours,
        table_name: identifier('table name').optional(),
        limit: limit(LOAD_ERRORS_CAP, 20),
      })
      .strict(),
    output: z.object({
      lookback_hours: z.number().int(),
      total: z.number().int().min(0),
      by_table: z.array(
        z.object({ schema: z.string(), table_name: z.string(), errors: z.number().int(), loads: z.number().int() }),
      ),
      by_error: z.array(
        z.object({ error_code: z.number().int(), error_message: z.string(), errors: z.number().int() }),
      ),
      errors: z.array(
        z.object({
          cluster_id: z.string(),
          query_id: z.number().int(),
          time: isoTime,
          schema: z.string(),
          table_name: z.string(),
          file_name: z.string(),
          line_number: z.number().int(),
          column_name: z.string(),
          column_type: z.string(),
          error_code: z.number().int(),
          error_message: z.string(),
          raw_value: z.string(),
        }),
      ),
    }),
    example: { lookback_hours: 24 },
    async run(input, { envId }) {
      const errors = (await warehouse.loadErrors(envId, input.lookback_hours)).filter(
        (error) => input.table_name === undefined || error.table_name.toLowerCase() === input.table_name.toLowerCase(),
      );
      const tables = new Map<string, { schema: string; table_name: string; errors: number; loads: Set<number> }>();
      const codes = new Map<number, { error_message: string; errors: number }>();
      for (const error of errors) {
        const key = `${error.schema}.${error.table_name}`;
        const table = tables.get(key) ?? {
          schema: error.schema,
          table_name: error.table_name,
          errors: 0,
          loads: new Set<number>(),
        };
        table.errors += 1;
        table.loads.add(error.query_id);
        tables.set(key, table);
        const code = codes.get(error.error_code) ?? { error_message: error.error_message, errors: 0 };
        codes.set(error.error_code, { ...code, errors: code.errors + 1 });
      }
      return {
        lookback_hours: input.lookback_hours,
        total: errors.length,
        by_table: [...tables.values()]
          .map(({ loads, ...table }) => ({ ...table, loads: loads.size }))
          .sort((a, b) => b.errors - a.errors),
        by_error: [...codes.entries()]
          .map(([error_code, code]) => ({ error_code, ...code }))
          .sort((a, b) => b.errors - a.errors || a.error_code - b.error_code),
        errors: errors.slice(0, input.limit).map((error) => ({ ...error, raw_value: error.raw_value.slice(0, 200) })),
      };
    },
  });
}
