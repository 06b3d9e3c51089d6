import { z } from 'zod';
import { LONGEST_QUERIES_CAP, PLAN_LINES_CAP, QUERY_STEPS_CAP } from '../../../gateways/warehouse/diagnostics.js';
import {
  SLOW_QUERY_THRESHOLD_SECONDS,
  SPILL_LOOKBACK_HOURS,
  SPILL_TOP_N,
  type WarehouseGateway,
} from '../../../gateways/warehouse/port.js';
import { defineTool } from '../../tool.js';
import {
  capQueryText,
  cappedTextShape,
  clusterId,
  DETAIL_QUERY_TEXT_CAP,
  isoTime,
  limit,
  lookbackHours,
  ofCluster,
  QUERY_TEXT_CAP,
  round,
  userName,
} from './shared.js';

/** Characters per plan line sent to the model (Redshift's filter lines can be very long). */
const PLAN_LINE_CAP = 300;

export function runningQueriesTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'running_queries',
    family: 'warehouse',
    description: `Queries queued or executing right now, longest-lived first: user, WLM queue, state, seconds queued and executing so far, session pid and text (cut at ${QUERY_TEXT_CAP} characters). Use it for "what is running", "what is stuck", "who is using the cluster now".`,
    input: z
      .object({
        state: z.enum(['all', 'running', 'queued']).default('all'),
        user_name: userName.optional(),
        cluster_id: clusterId.optional(),
        limit: limit(100, 10),
      })
      .strict(),
    output: z.object({
      total: z.number().int().min(0).describe('matching queries before the limit'),
      queries: z.array(
        z.object({
          cluster_id: z.string(),
          query_id: z.number().int(),
          pid: z.number().int(),
          user_name: z.string(),
          queue: z.string(),
          state: z.enum(['queued', 'running']),
          submitted_at: isoTime,
          queue_seconds: z.number().min(0),
          exec_seconds: z.number().min(0),
          ...cappedTextShape,
        }),
      ),
    }),
    example: { state: 'queued', limit: 10 },
    async run(input, { envId }) {
      const matching = ofCluster(await warehouse.runningQueries(envId), input.cluster_id)
        .filter((q) => input.state === 'all' || q.state === input.state)
        .filter((q) => input.user_name === undefined || q.user_name.toLowerCase() === input.user_name.toLowerCase())
        .sort(
          (a, b) => b.queue_seconds + b.exec_seconds - (a.queue_seconds + a.exec_seconds) || a.query_id - b.query_id,
        );
      return {
        total: matching.length,
        queries: matching
          .slice(0, input.limit)
          .map(({ database: _db, query_text, ...q }) => ({ ...q, ...capQueryText(query_text) })),
      };
    },
  });
}

const longQueryShape = z.object({
  cluster_id: z.string(),
  query_id: z.number().int(),
  user_name: z.string(),
  queue: z.string(),
  exec_seconds: z.number().min(0),
  ...cappedTextShape,
});

export function slowQueriesTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'slow_queries',
    family: 'warehouse',
    description: `The slowest queries: those executing now for more than ${SLOW_QUERY_THRESHOLD_SECONDS} s, and the longest-executing queries that finished in the look-back (at most ${LONGEST_QUERIES_CAP} considered), with user, queue, queue wait and text (cut at ${QUERY_TEXT_CAP} characters). Follow up on one with query_details.`,
    input: z
      .object({
        lookback_hours: lookbackHours,
        min_exec_seconds: z
          .number()
          .min(0)
          .max(86_400)
          .default(60)
          .describe('finished queries shorter than this are left out'),
        user_name: userName.optional(),
        limit: limit(LONGEST_QUERIES_CAP, 5),
      })
      .strict(),
    output: z.object({
      lookback_hours: z.number().int(),
      running_over_threshold: z.array(longQueryShape.extend({ database: z.string() })),
      finished: z.array(
        longQueryShape.extend({ start_time: isoTime, end_time: isoTime, queue_seconds: z.number().min(0) }),
      ),
    }),
    example: { lookback_hours: 24, limit: 5 },
    async run(input, { envId }) {
      const [running, finished] = await Promise.all([
        warehouse.slowQueries(envId),
        warehouse.longestQueries(envId, input.lookback_hours),
      ]);
      const byUser = <T extends { user_name: string }>(rows: T[]) =>
        input.user_name === undefined
          ? rows
          : rows.filter((row) => row.user_name.toLowerCase() === input.user_name!.toLowerCase());
      return {
        lookback_hours: input.lookback_hours,
        running_over_threshold: byUser(running)
          .slice(0, input.limit)
          .map(({ wlm_queue, exec_time_seconds, query_text, ...q }) => ({
            ...q,
            queue: wlm_queue,
            exec_seconds: exec_time_seconds,
            ...capQueryText(query_text),
          })),
        finished: byUser(finished)
          .filter((q) => q.exec_seconds >= input.min_exec_seconds)
          .slice(0, input.limit)
          .map(({ database: _db, query_text, ...q }) => ({ ...q, ...capQueryText(query_text) })),
      };
    },
  });
}

export function queryDetailsTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'query_details',
    family: 'warehouse',
    description: `Everything about one query by its id: user, queue, status, timings (queue wait, execution), disk spill, its text (up to ${DETAIL_QUERY_TEXT_CAP} characters), its execution steps (scans, joins, aggregations, with rows, time and whether they spilled to disk) and its stored EXPLAIN plan. found=false when the warehouse no longer keeps the query (history is about a week).`,
    input: z
      .object({
        query_id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).describe('the query id from another tool'),
      })
      .strict(),
    output: z.object({
      found: z.boolean(),
      query: z
        .object({
          cluster_id: z.string(),
          query_id: z.number().int(),
          user_name: z.string(),
          database: z.string(),
          queue: z.string(),
          status: z.string(),
          submitted_at: isoTime,
          end_time: isoTime.nullable(),
          queue_seconds: z.number().min(0),
          exec_seconds: z.number().min(0),
          spill_mb: z.number().min(0),
          ...cappedTextShape,
          steps: z.array(
            z.object({
              segment: z.number().int(),
              step: z.number().int(),
              label: z.string(),
              table_name: z.string().nullable(),
              rows: z.number(),
              bytes: z.number(),
              max_seconds: z.number(),
              disk_based: z.boolean(),
            }),
          ),
          disk_based_steps: z.number().int().min(0),
          plan: z.array(z.string()),
        })
        .nullable(),
    }),
    example: { query_id: 1234567 },
    async run(input, { envId }) {
      const details = await warehouse.queryDetails(envId, input.query_id);
      if (!details) return { found: false, query: null };
      const { query_text, steps, plan, ...rest } = details;
      return {
        found: true,
        query: {
          ...rest,
          ...capQueryText(query_text, DETAIL_QUERY_TEXT_CAP),
          steps: steps.slice(0, QUERY_STEPS_CAP),
          disk_based_steps: steps.filter((step) => step.disk_based).length,
          plan: plan
            .slice(0, PLAN_LINES_CAP)
            .map((line) => (line.length > PLAN_LINE_CAP ? `${line.slice(0, PLAN_LINE_CAP)}…` : line)),
        },
      };
    },
  });
}

export function diskSpillTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'disk_spill',
    family: 'warehouse',
    description: `Queries that spilled to disk (ran out of working memory) in the last ${SPILL_LOOKBACK_HOURS} hours, largest spill first (the top ${SPILL_TOP_N}), with user, execution time and text, and the total spill per user. Heavy spill points at under-sized WLM memory, missing statistics or a bad join.`,
    input: z
      .object({ user_name: userName.optional(), cluster_id: clusterId.optional(), limit: limit(SPILL_TOP_N, 10) })
      .strict(),
    output: z.object({
      lookback_hours: z.number().int(),
      total_spill_mb: z.number().min(0),
      by_user: z.array(z.object({ user_name: z.string(), queries: z.number().int(), spill_mb: z.number() })),
      queries: z.array(
        z.object({
          cluster_id: z.string(),
          query_id: z.number().int(),
          user_name: z.string(),
          spill_mb: z.number(),
          exec_time_seconds: z.number(),
          ...cappedTextShape,
        }),
      ),
    }),
    example: { limit: 5 },
    async run(input, { envId }) {
      const spills = ofCluster(await warehouse.spillQueries(envId), input.cluster_id).filter(
        (q) => input.user_name === undefined || q.user_name.toLowerCase() === input.user_name.toLowerCase(),
      );
      const users = new Map<string, { queries: number; spill_mb: number }>();
      for (const q of spills) {
        const user = users.get(q.user_name) ?? { queries: 0, spill_mb: 0 };
        users.set(q.user_name, { queries: user.queries + 1, spill_mb: user.spill_mb + q.spill_mb });
      }
      return {
        lookback_hours: SPILL_LOOKBACK_HOURS,
        total_spill_mb: round(spills.reduce((sum, q) => sum + q.spill_mb, 0)),
        by_user: [...users.entries()]
          .map(([user_name, figures]) => ({ user_name, ...figures }))
          .sort((a, b) => b.spill_mb - a.spill_mb),
        queries: spills.slice(0, input.limit).map(({ query_text, ...q }) => ({ ...q, ...capQueryText(query_text) })),
      };
    },
  });
}
