/**
 * Composition of the platform watch (src/process/platform-watch.ts): what it observes (this
 * instance's evaluator ticks, the projection runner, the log's refused appends, the escalation's
 * recorded delivery outcomes) and where its incidents go (PLATFORM_ALERTS_POLICY_ID, in the
 * policy's own tenant; a tenant's failing deliveries to its own platform-alerts policy when it set one).
 */
import type { Logger } from 'pino';
import { ESCALATION_POLICIES, type EscalationPolicyDoc } from '../../projections/escalation-policies.js';
import { TENANT_PERMISSION_DEFAULTS, type TenantDefaultsDoc } from '../../projections/tenant-defaults.js';
import type { Config } from '../config.js';
import type { EventStore, EventToAppend } from '../eventstore/port.js';
import { createPlatformWatch, type PlatformWatch } from '../process/platform-watch.js';
import type { PlatformWatchMetrics } from '../process/platform-watch-metrics.js';
import type { ProjectionStatus } from '../process/platform-causes.js';
import type { AppendRefusalSnapshot } from '../process/platform-causes.js';
import type { SubjectIncidents } from '../process/subject-incidents.js';
import type { Timers } from '../process/sync/sync-scheduler.js';
import type { ReadModelReader } from '../readstore/port.js';
import type { PlatformArea } from './area.js';

export interface PlatformWatchComposition extends PlatformArea {
  watch: PlatformWatch;
  /** Tell the watch a scheduled evaluator tick completed. */
  ticked(): void;
  /** The event store the escalation records deliveries through: final outcomes reach the watch. */
  observingDeliveries(store: EventStore): EventStore;
}

export function composePlatformWatch(deps: {
  config: Config;
  now: () => Date;
  timers?: Timers;
  instanceId: string;
  reader: ReadModelReader;
  incidents: SubjectIncidents;
  projections: () => ProjectionStatus[];
  appendRefusal: () => AppendRefusalSnapshot | undefined;
  metrics: PlatformWatchMetrics;
  logger: Logger;
}): PlatformWatchComposition {
  const intervalMs = deps.config.alertEvaluationIntervalSeconds * 1000;
  let lastTickAt: number | null = null;
  const policyId = deps.config.platformWatch.alertsPolicyId;
  const watch = createPlatformWatch({
    instanceId: deps.instanceId,
    now: deps.now,
    timers: deps.timers,
    periodMs: intervalMs,
    evaluatorIntervalMs: intervalMs,
    lastTickAt: () => lastTickAt,
    projections: deps.projections,
    projectionStuckAfterMs: deps.config.platformWatch.projectionStuckMs,
    appendRefusal: deps.appendRefusal,
    incidents: deps.incidents,
    deploymentPolicy: async () => {
      if (!policyId) return null;
      const policy = await deps.reader.get<EscalationPolicyDoc>(ESCALATION_POLICIES, policyId);
      return policy ? { tenantId: policy.tenantId, policyId } : null;
    },
    // The tenant's own platform-alerts policy (PUT /tenant/platform-alerts), while it still exists.
    tenantPolicy: async (tenantId) => {
      const settings = await deps.reader.get<TenantDefaultsDoc>(TENANT_PERMISSION_DEFAULTS, tenantId);
      const own = settings?.platformAlertsPolicyId;
      if (!own) return null;
      const policy = await deps.reader.get<EscalationPolicyDoc>(ESCALATION_POLICIES, own);
      return policy?.tenantId === tenantId ? own : null;
    },
    metrics: deps.metrics,
    logger: deps.logger,
  });
  if (policyId === undefined)
    deps.logger.warn('PLATFORM_ALERTS_POLICY_ID is not set: the platform watch logs its causes and opens no incident');
  return {
    watch,
    ticked() {
      const at = deps.now();
      lastTickAt = at.getTime();
      deps.metrics.ticked(at);
    },
    observingDeliveries(store) {
      return {
        ...store,
        async append(stream, events, options) {
          const result = await store.append(stream, events, options);
          for (const event of events) observe(watch, event);
          return result;
        },
      };
    },
    routes: [],
    processes: [watch],
  };
}

/** A recorded NotificationFailed (every attempt spent) or NotificationDelivered, told to the watch. */
function observe(watch: PlatformWatch, event: EventToAppend) {
  if (event.type !== 'NotificationFailed' && event.type !== 'NotificationDelivered') return;
  const data = event.data as {
    recipientKey: string | null;
    via: { type: string; id: string } | null;
    medium: string | null;
    target: string;
    error?: { message: string };
  };
  const recipient = data.recipientKey ?? (data.via ? `${data.via.type}:${data.via.id}` : 'nobody');
  watch.observeDelivery({
    tenantId: event.metadata.tenantId,
    failed: event.type === 'NotificationFailed',
    recipient,
    medium: data.medium,
    target: data.target,
    error: data.error?.message ?? null,
  });
}
