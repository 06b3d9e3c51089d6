/**
 * The paging workload of the cluster test and benchmark: a webhook channel to a verifying loopback
 * receiver, a two-stage escalation policy to it, and alert rules on the simulated warehouse that
 * never breach or always breach, whatever the clock says, so every process agrees without pinning:
 * every built-in metric is ≥ 0 (CPU never under its 4 % idle floor), so `lt 0` never holds and
 * `gte 0` always does.
 */
import { ruleShareKey } from '../../src/events/rule-shares.js';
import type { Cluster } from './cluster-harness.js';
import { startWebhookReceiver, type WebhookReceiver } from './notify-receivers/webhook-receiver.js';
import type { Caller } from './test-app.js';

export const METRICS = [
  'query_runtime_seconds',
  'queue_time_seconds',
  'disk_spill_gb',
  'active_query_count',
  'cpu_utilization_pct',
  'storage_utilization_pct',
  'unsorted_pct',
] as const;
/** Look-back windows of the quiet rules: with METRICS, 42 distinct warehouse reads per tick. */
export const WINDOWS = [1, 2, 3, 5, 10, 15] as const;

export interface RuleBody {
  name: string;
  metric: string;
  condition: 'lt' | 'gte';
  threshold: number;
  evaluation_window_minutes: number;
  severity: 'high' | 'low';
  escalation_policy_id: string;
}

export function quietRules(count: number, policyId: string): RuleBody[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `quiet-${i}`,
    metric: METRICS[i % METRICS.length]!,
    condition: 'lt',
    threshold: 0,
    evaluation_window_minutes: WINDOWS[Math.floor(i / METRICS.length) % WINDOWS.length]!,
    severity: 'low',
    escalation_policy_id: policyId,
  }));
}

/** Window 0: an incident at the first tick that sees the rule. */
export function breachingRules(count: number, policyId: string, prefix = 'breach'): RuleBody[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `${prefix}-${i}`,
    metric: METRICS[i % METRICS.length]!,
    condition: 'gte',
    threshold: 0,
    evaluation_window_minutes: 0,
    severity: 'high',
    escalation_policy_id: policyId,
  }));
}

/** The distinct warehouse reads (environment, cluster, metric, window) these rules need per tick. */
export const distinctReads = (envId: string, rules: RuleBody[]) =>
  new Set(
    rules.map((r) =>
      ruleShareKey({ envId, clusterId: null, metric: r.metric, evaluationWindowMinutes: r.evaluation_window_minutes }),
    ),
  ).size;

export interface PagingSetup {
  receiver: WebhookReceiver;
  channelId: string;
  policyId: string;
}

/** Stage 2 waits the shortest delay a policy allows (1 minute: delay_minutes is whole minutes, at least 1 after stage 1). */
export async function createPagingSetup(cluster: Cluster, caller: Caller, instance = 0): Promise<PagingSetup> {
  let secret = '';
  const receiver = await startWebhookReceiver({ secret: () => secret });
  const channel = await cluster.api(instance, 'POST', '/api/v1/notification-channels', {
    caller,
    body: { name: 'pager hook', type: 'webhook', config: { url: `${receiver.url}/page`, method: 'POST' } },
  });
  if (channel.status !== 201)
    throw new Error(`could not create the channel: ${channel.status} ${JSON.stringify(channel.body)}`);
  secret = channel.body.data.signing_secret;
  const target = { type: 'channel', id: channel.body.data.id };
  const policy = await cluster.api(instance, 'POST', '/api/v1/escalation-policies', {
    caller,
    body: {
      name: 'two stages',
      stages: [
        { stage_order: 1, delay_minutes: 0, targets: [target] },
        { stage_order: 2, delay_minutes: 1, targets: [target] },
      ],
    },
  });
  if (policy.status !== 201)
    throw new Error(`could not create the policy: ${policy.status} ${JSON.stringify(policy.body)}`);
  return { receiver, channelId: channel.body.data.id, policyId: policy.body.data.id };
}

/**
 * Creates the rules through the API, `concurrency` requests at a time spread over `instances`
 * (as a load balancer would); the ids in the order of `bodies`. Any refusal stops it.
 */
export async function createRules(
  cluster: Cluster,
  caller: Caller,
  bodies: RuleBody[],
  instances: number[],
  concurrency = 12,
): Promise<string[]> {
  const ids: string[] = new Array(bodies.length);
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const index = next++;
      const instance = instances[index % instances.length]!;
      const created = await cluster.api(instance, 'POST', '/api/v1/alert-rules', { caller, body: bodies[index] });
      if (created.status !== 201)
        throw new Error(`rule ${index} on instance ${instance}: ${created.status} ${JSON.stringify(created.body)}`);
      // The body is the rule as the read model has it: null when the projection lagged past the
      // read-your-writes bound (X-Read-Model-Pending); the Location names it either way.
      ids[index] = created.headers.get('location')!.split('/').at(-1)!;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ids;
}

export interface Page {
  incidentId: string;
  kind: string;
  stageOrder: number | null;
  deliveryId: string;
  receivedAt: number;
}

/** The pages a receiver accepted, read from their delivery ids (`incident:kind:stage:cycle:recipient:medium`). */
export function pagesOf(receiver: WebhookReceiver): Page[] {
  return receiver.accepted.map(({ payload, receivedAt }) => {
    const deliveryId = String(payload.delivery_id);
    const [incidentId, kind, stage] = deliveryId.split(':');
    return {
      incidentId: incidentId!,
      kind: kind!,
      stageOrder: stage === '-' || stage === undefined ? null : Number(stage),
      deliveryId,
      receivedAt,
    };
  });
}

/** Every page of one stage of one incident. */
export const stagePages = (pages: Page[], incidentId: string, stageOrder: number) =>
  pages.filter((p) => p.incidentId === incidentId && p.kind === 'stage' && p.stageOrder === stageOrder);
