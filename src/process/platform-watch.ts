/**
 * The platform watches itself (issue 38 §3): on its own timer, independent of the evaluator's
 * loop, every check asks each cause (platform-causes.ts) whether it fails and opens or resolves the
 * cause's `platform` incident through subjectIncidents. Causes of this instance (its evaluator, its
 * projections, its event-store appends) have subjects ending in `@<instance>`, so two members never
 * resolve each other's; a delivery's cause belongs to the tenant whose recipient failed and any
 * instance's later success there resolves it.
 *
 * Where an incident goes: a tenant-scoped cause (deliveries) to the tenant's own platform-alerts
 * policy when it names one, else, like every other cause, to PLATFORM_ALERTS_POLICY_ID (in that
 * policy's tenant). With neither, nothing is opened: the cause is logged and on /metrics only.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  type AppendRefusalSnapshot,
  type CauseVerdict,
  evaluatorStalled,
  eventStoreVerdict,
  type ProjectionStatus,
  type ProjectionTrack,
  projectionVerdict,
  trackProjection,
} from './platform-causes.js';
import type { PlatformCause, PlatformWatchMetrics } from './platform-watch-metrics.js';
import type { SubjectIncidents } from './subject-incidents.js';
import type { Timers } from './sync/sync-scheduler.js';

export const PLATFORM_WATCH_ACTOR = 'system:platform-watch';

/** A policy and the tenant it lives in (the incident's tenant). */
export interface PolicyRef {
  tenantId: string;
  policyId: string;
}

export interface PlatformWatchDeps {
  instanceId: string;
  now: () => Date;
  timers?: Timers;
  /** How often the watch checks (the evaluator's interval: a stall is seen within one check). */
  periodMs: number;
  evaluatorIntervalMs: number;
  /** When this instance's evaluator last completed a tick (null: not yet). */
  lastTickAt: () => number | null;
  projections: () => ProjectionStatus[];
  /** A projection with events to apply that has not moved for this long is stuck. */
  projectionStuckAfterMs: number;
  appendRefusal: () => AppendRefusalSnapshot | undefined;
  incidents: Pick<SubjectIncidents, 'open' | 'resolve'>;
  /** PLATFORM_ALERTS_POLICY_ID and its tenant (null: unset, or no such policy). */
  deploymentPolicy: () => Promise<PolicyRef | null>;
  /** A tenant's own platform-alerts policy for its tenant-scoped causes (null: none). */
  tenantPolicy: (tenantId: string) => Promise<string | null>;
  metrics: PlatformWatchMetrics;
  logger: Logger;
}

/** One failing-or-not cause of one check. */
interface CauseState {
  cause: PlatformCause;
  subject: string;
  /** The tenant whose cause it is (deliveries); null: the deployment's. */
  tenantId: string | null;
  verdict: CauseVerdict | null;
}

/** A delivery outcome the escalation recorded (NotificationDelivered or NotificationFailed). */
export interface DeliveryObservation {
  tenantId: string;
  failed: boolean;
  /** `user:<id>` / `channel:<id>`, or the policy target when it resolved to nobody. */
  recipient: string;
  medium: string | null;
  target: string;
  error: string | null;
}

export const deliverySubject = (recipient: string, medium: string | null) =>
  `platform:delivery:${recipient}:${medium ?? 'none'}`;

export function createPlatformWatch(deps: PlatformWatchDeps) {
  const timers = deps.timers ?? {
    setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
    clearTimeout: (handle: unknown) => clearTimeout(handle as NodeJS.Timeout),
  };
  const at = `@${deps.instanceId}`;
  let startedAt = deps.now().getTime();
  const tracks = new Map<string, ProjectionTrack>();
  // Subjects seen failing at the last check (undefined: not yet checked since start, so an
  // incident a previous process left open is resolved at the first check that finds all well).
  const lastFailing = new Map<string, boolean>();
  // Deliveries whose every attempt failed, by tenant and subject, until an incident tells of them
  // and a later delivery there succeeds (then resolved once and forgotten).
  const deliveries = new Map<string, CauseState>();
  // A refusal of the event store that no open incident tells of yet.
  let unreportedRefusal: AppendRefusalSnapshot | undefined;
  let handle: unknown;
  let running = false;
  let current: Promise<void> = Promise.resolve();

  function causesNow(): CauseState[] {
    const now = deps.now().getTime();
    const states: CauseState[] = [
      {
        cause: 'evaluator',
        subject: `platform:evaluator${at}`,
        tenantId: null,
        verdict: evaluatorStalled({
          lastTickAt: deps.lastTickAt(),
          watchStartedAt: startedAt,
          intervalMs: deps.evaluatorIntervalMs,
          now,
        }),
      },
    ];
    for (const status of deps.projections()) {
      const track = trackProjection(tracks.get(status.name), status, now);
      tracks.set(status.name, track);
      states.push({
        cause: 'projection',
        subject: `platform:projection:${status.name}${at}`,
        tenantId: null,
        verdict: projectionVerdict(status, track, now, deps.projectionStuckAfterMs),
      });
    }
    const refusal = deps.appendRefusal();
    if (refusal) unreportedRefusal = refusal;
    states.push({
      cause: 'event_store',
      subject: `platform:event-store${at}`,
      tenantId: null,
      verdict: eventStoreVerdict(refusal, unreportedRefusal),
    });
    states.push(...deliveries.values());
    return states;
  }

  async function policyFor(state: CauseState): Promise<PolicyRef | null> {
    if (state.tenantId) {
      const own = await deps.tenantPolicy(state.tenantId);
      if (own) return { tenantId: state.tenantId, policyId: own };
    }
    return deps.deploymentPolicy();
  }

  async function reconcile(state: CauseState, deployment: PolicyRef | null) {
    const key = `${state.tenantId ?? ''}:${state.subject}`;
    const failing = state.verdict !== null;
    const before = lastFailing.get(key);
    lastFailing.set(key, failing);
    const policy = state.tenantId ? await policyFor(state) : deployment;
    if (!failing) {
      if (before === false || !policy) return;
      const cause = { tenantId: policy.tenantId, actor: PLATFORM_WATCH_ACTOR, correlationId: randomUUID() };
      await deps.incidents.resolve(cause, state.subject, 'the platform watch found the cause cleared');
      return;
    }
    if (!policy) {
      if (before !== true)
        deps.logger.error({ subject: state.subject, ...state.verdict }, 'platform cause failing; no policy to page');
      deps.metrics.unrecorded(state.cause);
      return;
    }
    const cause = { tenantId: policy.tenantId, actor: PLATFORM_WATCH_ACTOR, correlationId: randomUUID() };
    const outcome = await deps.incidents.open(cause, {
      source: 'platform',
      subject: state.subject,
      title: state.verdict!.title,
      detail: state.verdict!.detail,
      severity: 'critical',
      escalationPolicyId: policy.policyId,
      envId: null,
      clusterId: null,
    });
    if (outcome.opened) deps.metrics.opened(state.cause);
    // The refusal is told: a later check clears the cause (and resolves) when appends still work.
    if (state.cause === 'event_store' && !deps.appendRefusal()) unreportedRefusal = undefined;
  }

  /** One check of every cause; failures of one cause (a refused append) never skip the others. */
  async function check(): Promise<void> {
    const states = causesNow();
    const counts = new Map<PlatformCause, number>();
    for (const state of states) counts.set(state.cause, (counts.get(state.cause) ?? 0) + (state.verdict ? 1 : 0));
    for (const [cause, count] of counts) deps.metrics.failing(cause, count);
    const deployment = await deps.deploymentPolicy().catch(() => null);
    for (const state of states) {
      try {
        await reconcile(state, deployment);
        if (state.tenantId && !state.verdict) deliveries.delete(`${state.tenantId}:${state.subject}`);
      } catch (error) {
        // Not recorded (the event store refuses, the read model is behind): tried at the next check.
        lastFailing.delete(`${state.tenantId ?? ''}:${state.subject}`);
        deps.metrics.unrecorded(state.cause);
        deps.logger.warn({ err: error, subject: state.subject }, 'platform incident could not be opened or resolved');
      }
    }
  }

  function arm() {
    if (!running) return;
    // The check's promise is returned so virtual timers (tests) can await it; real ones ignore it.
    handle = timers.setTimeout(() => {
      current = check()
        .catch((error: unknown) => deps.logger.error({ err: error }, 'platform watch check failed'))
        .finally(arm);
      return current;
    }, deps.periodMs);
  }

  return {
    check,
    /** A delivery outcome recorded by the escalation (only final failures and successes count). */
    observeDelivery(observation: DeliveryObservation) {
      const subject = deliverySubject(observation.recipient, observation.medium);
      const key = `${observation.tenantId}:${subject}`;
      // A success this instance never saw fail is kept too: another member may have opened the
      // incident, and the next check resolves it (one read of the incidents read model).
      deliveries.set(key, {
        cause: 'delivery',
        subject,
        tenantId: observation.tenantId,
        verdict: observation.failed
          ? {
              title: `Every attempt to deliver to ${observation.recipient} (${observation.medium ?? 'no medium'}) failed`,
              detail: `${observation.target}: ${observation.error ?? 'delivery failed'}`,
            }
          : null,
      });
    },
    start() {
      running = true;
      startedAt = deps.now().getTime();
      arm();
    },
    async stop() {
      running = false;
      if (handle !== undefined) timers.clearTimeout(handle);
      await current;
    },
  };
}

export type PlatformWatch = ReturnType<typeof createPlatformWatch>;
