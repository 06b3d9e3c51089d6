import { z } from 'zod';
import { USER_WORKLOAD_CAP } from '../../../gateways/warehouse/diagnostics.js';
import type { WarehouseGateway } from '../../../gateways/warehouse/port.js';
import { defineTool } from '../../tool.js';
import { clusterId, isoTime, limit, lookbackHours, ofCluster, round, userName } from './shared.js';

export function wlmQueueWaitsTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'wlm_queue_waits',
    family: 'warehouse',
    description:
      'Workload management (WLM) queue waits per queue: over the look-back, how many queries each queue ran, how many waited a second or more, average/longest/total wait and average execution time; and right now, how many queries wait and execute in each queue and how long the waiting ones have waited. Use it for "why do my queries queue" and to size queue slots or concurrency scaling.',
    input: z.object({ lookback_hours: lookbackHours, cluster_id: clusterId.optional() }).strict(),
    output: z.object({
      lookback_hours: z.number().int(),
      queues: z.array(
        z.object({
          cluster_id: z.string(),
          queue: z.string(),
          queries: z.number().int().min(0),
          queued_queries: z.number().int().min(0),
          avg_queue_seconds: z.number().min(0),
          max_queue_seconds: z.number().min(0),
          total_queue_seconds: z.number().min(0),
          avg_exec_seconds: z.number().min(0),
          waiting_now: z.number().int().min(0),
          executing_now: z.number().int().min(0),
          avg_wait_now_seconds: z.number().min(0),
        }),
      ),
    }),
    example: { lookback_hours: 6 },
    async run(input, { envId }) {
      const [history, live] = await Promise.all([
        warehouse.queueWaits(envId, input.lookback_hours),
        warehouse.wlmQueues(envId),
      ]);
      const key = (row: { cluster_id: string; queue: string }) => `${row.cluster_id}\u0000${row.queue}`;
      const liveByQueue = new Map(live.map((sample) => [key(sample), sample]));
      const idle = { waiting: 0, executing: 0, avg_wait_ms: 0 };
      const queues = history.map((stats) => {
        const now = liveByQueue.get(key(stats)) ?? idle;
        liveByQueue.delete(key(stats));
        return {
          ...stats,
          waiting_now: now.waiting,
          executing_now: now.executing,
          avg_wait_now_seconds: round(now.avg_wait_ms / 1000, 1),
        };
      });
      // A queue busy now but without history in the look-back still belongs in the answer.
      for (const sample of liveByQueue.values()) {
        queues.push({
          cluster_id: sample.cluster_id,
          queue: sample.queue,
          queries: 0,
          queued_queries: 0,
          avg_queue_seconds: 0,
          max_queue_seconds: 0,
          total_queue_seconds: 0,
          avg_exec_seconds: 0,
          waiting_now: sample.waiting,
          executing_now: sample.executing,
          avg_wait_now_seconds: round(sample.avg_wait_ms / 1000, 1),
        });
      }
      return { lookback_hours: input.lookback_hours, queues: ofCluster(queues, input.cluster_id) };
    },
  });
}

export function userWorkloadTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'user_workload',
    family: 'warehouse',
    description:
      'Who uses the warehouse: per database user, the queries that finished in the look-back, total/average/longest execution time, total and average queue wait, and disk spill, busiest first. Use it to find the users or services (ETL, BI tools) behind load, queueing or spill.',
    input: z
      .object({ lookback_hours: lookbackHours, user_name: userName.optional(), limit: limit(USER_WORKLOAD_CAP, 20) })
      .strict(),
    output: z.object({
      lookback_hours: z.number().int(),
      users: z.array(
        z.object({
          cluster_id: z.string(),
          user_name: z.string(),
          queries: z.number().int().min(0),
          total_exec_seconds: z.number().min(0),
          avg_exec_seconds: z.number().min(0),
          max_exec_seconds: z.number().min(0),
          total_queue_seconds: z.number().min(0),
          avg_queue_seconds: z.number().min(0),
          spill_mb: z.number().min(0),
          share_of_exec_pct: z
            .number()
            .min(0)
            .max(100)
            .describe("the user's share of all execution time in the look-back"),
        }),
      ),
    }),
    example: { lookback_hours: 24, limit: 10 },
    async run(input, { envId }) {
      const users = await warehouse.userWorkload(envId, input.lookback_hours);
      const total = users.reduce((sum, user) => sum + user.total_exec_seconds, 0);
      return {
        lookback_hours: input.lookback_hours,
        users: users
          .filter(
            (user) => input.user_name === undefined || user.user_name.toLowerCase() === input.user_name.toLowerCase(),
          )
          .slice(0, input.limit)
          .map((user) => ({
            ...user,
            share_of_exec_pct: total > 0 ? round((user.total_exec_seconds * 100) / total) : 0,
          })),
      };
    },
  });
}

export function concurrencyScalingUsageTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'concurrency_scaling_usage',
    family: 'warehouse',
    description:
      'Concurrency scaling over the look-back: the periods extra (scaling) clusters ran queries, how many queries they took and the seconds used (billed per second beyond the free daily credit), with totals. Serverless workgroups report the queries that ran on secondary compute, per hour.',
    input: z.object({ lookback_hours: lookbackHours, limit: limit(100, 24) }).strict(),
    output: z.object({
      lookback_hours: z.number().int(),
      total_usage_seconds: z.number().min(0),
      total_queries: z.number().int().min(0),
      periods_total: z.number().int().min(0),
      periods: z.array(
        z.object({
          cluster_id: z.string(),
          start_time: isoTime,
          end_time: isoTime,
          queries: z.number().int().min(0),
          usage_seconds: z.number().min(0),
        }),
      ),
    }),
    example: { lookback_hours: 24 },
    async run(input, { envId }) {
      const periods = await warehouse.concurrencyScaling(envId, input.lookback_hours);
      return {
        lookback_hours: input.lookback_hours,
        total_usage_seconds: round(periods.reduce((sum, p) => sum + p.usage_seconds, 0)),
        total_queries: periods.reduce((sum, p) => sum + p.queries, 0),
        periods_total: periods.length,
        // The most recent periods matter most to "what is happening".
        periods: periods.slice(-input.limit),
      };
    },
  });
}
