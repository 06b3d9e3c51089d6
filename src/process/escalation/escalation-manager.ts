/**
 * The escalation manager: an RxJS process manager fed by the event log. Every event on an
 * incident's stream wakes that incident up; each wake-up is one reconcile (incident-reconciler.ts)
 * that answers when to look again, and the manager keeps one timer per incident for that moment
 * (a newer answer replaces the timer). Wake-ups of one incident run one after another, different
 * incidents in parallel. Time comes from the injected clock and RxJS scheduler, so tests run it in
 * virtual time.
 *
 * After a restart, the manager follows the log from its head and looks at every triggered
 * incident once: timers are rebuilt from the incidents' events, and a stage that came due while the
 * platform was down fires once.
 *
 * In a cluster every member follows every incident, but only the member that owns an incident
 * (src/cluster/membership.ts) reconciles it; the others drop its timer. When the members change,
 * each member lists the active incidents again and looks at the ones it owns now, so a dead
 * member's incidents are picked up (an overdue stage fires once, its lateness recorded).
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import {
  asyncScheduler,
  EMPTY,
  from,
  Subject,
  timer,
  type SchedulerLike,
  type Subscription as RxSubscription,
} from 'rxjs';
import { catchError, concatMap, groupBy, map, mergeMap, switchMap } from 'rxjs/operators';
import type { EventStore, Subscription } from '../../eventstore/port.js';
import { INCIDENT_STREAM_PREFIX } from '../../events/incident.js';
import { MAINTENANCE_WINDOW_STREAM_PREFIX } from '../../events/maintenance-window.js';
import { fencedDeps, FencedOut, type ReconcileTenure } from './fencing.js';
import { reconcileIncident, type ReconcilerDeps } from './incident-reconciler.js';

const INCIDENT_STREAM = new RegExp(`^${INCIDENT_STREAM_PREFIX}([0-9a-f-]{36})$`);
/** A wake-up group with nothing to do for this long is let go (a timer still pending keeps running). */
const IDLE_GROUP_MS = 10 * 60_000;
const RESUBSCRIBE_AFTER_MS = 1000;

export interface EscalationManagerDeps extends Omit<ReconcilerDeps, 'onStageFired'> {
  /** Where the triggered incidents are listed at start (the incidents read model). */
  activeIncidents: () => Promise<string[]>;
  registry: Registry;
  scheduler?: SchedulerLike;
  /** Whether this instance drives the incident (default: every incident, one instance). */
  owns?: (incidentId: string) => boolean;
  /**
   * This instance's hold on the cluster, taken as a reconcile begins: its appends and sends stop once
   * it is broken (fencing.ts). Default: never broken (one instance).
   */
  tenure?: () => ReconcileTenure;
  /** Told as each reconcile begins and ends (a member whose reconciles are stuck gives its lease up). */
  progress?: { begin(): () => void };
  /** Subscribes to changes of the cluster's members (answers an unsubscribe). */
  onMembersChange?: (listener: () => void) => () => void;
  /**
   * The triggered incidents of a tenant: woken when one of its maintenance windows is created,
   * changed, ended or deleted, so a hold starts or resumes at once (a window's own start and end
   * are timers of the incidents it covers). Answered once the read models have applied the log up
   * to `position` (the window's event), so the reconciles read the window as changed. Default:
   * windows wake nothing.
   */
  triggeredIncidentsOf?: (tenantId: string, position: bigint) => Promise<string[]>;
}

export function createEscalationInstruments(registry: Registry) {
  return {
    lateness: new Histogram({
      name: 'escalation_stage_lateness_seconds',
      help: 'How late stages fired (fired_at - due_at)',
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    fired: new Counter({
      name: 'escalation_stages_fired_total',
      help: 'Escalation stages fired',
      registers: [registry],
    }),
    pending: new Gauge({
      name: 'escalation_pending',
      help: 'Incidents with an escalation stage waiting to fire',
      registers: [registry],
    }),
  };
}

export interface EscalationManager {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Look at an incident now (tests, and the log follower). */
  wake(incidentId: string): void;
  /** Resolves once every wake-up so far has been handled (tests). */
  idle(): Promise<void>;
}

export function createEscalationManager(
  deps: EscalationManagerDeps & { instruments: ReturnType<typeof createEscalationInstruments> },
): EscalationManager {
  const scheduler = deps.scheduler ?? asyncScheduler;
  const { lateness, fired, pending } = deps.instruments;
  const reconcilerDeps: ReconcilerDeps = {
    ...deps,
    onStageFired: (late) => {
      lateness.observe(Math.max(0, late));
      fired.inc();
    },
  };
  const wakeups = new Subject<string>();
  const waiting = new Set<string>();
  let inFlight = 0;
  let idleWaiters: (() => void)[] = [];
  const settle = () => {
    if (inFlight === 0) for (const resolve of idleWaiters.splice(0)) resolve();
  };
  let pipeline: RxSubscription | undefined;
  let follower: Subscription | undefined;
  let stopped = false;

  const reconcile = (incidentId: string) =>
    from(
      (async () => {
        const ended = deps.progress?.begin();
        try {
          const tenure = deps.tenure?.();
          // Another member drives it: no timer here (a change of members lists it again).
          if (deps.owns && !deps.owns(incidentId)) return null;
          return await reconcileIncident(tenure ? fencedDeps(reconcilerDeps, tenure) : reconcilerDeps, incidentId);
        } catch (error) {
          if (error instanceof FencedOut) {
            // Nothing more here until this instance has rejoined: its change of members lists the incident again.
            deps.logger.warn({ incidentId }, 'escalation: lease lost during the work; leaving the incident untouched');
            return null;
          }
          deps.logger.error(
            { err: error, incidentId },
            'escalation: could not handle the incident; trying again shortly',
          );
          return deps.now().getTime() + 5000;
        } finally {
          ended?.();
          inFlight--;
          queueMicrotask(settle);
        }
      })(),
    );

  const wake = (incidentId: string) => {
    if (stopped) return;
    inFlight++;
    wakeups.next(incidentId);
  };

  function startPipeline() {
    pipeline = wakeups
      .pipe(
        groupBy((id) => id, { duration: (group) => group.pipe(switchMap(() => timer(IDLE_GROUP_MS, scheduler))) }),
        mergeMap((group) =>
          group.pipe(
            concatMap((id) => reconcile(id)),
            switchMap((dueAt) => {
              if (dueAt === null) {
                waiting.delete(group.key);
                pending.set(waiting.size);
                return EMPTY;
              }
              waiting.add(group.key);
              pending.set(waiting.size);
              return timer(Math.max(0, dueAt - deps.now().getTime()), scheduler).pipe(map(() => group.key));
            }),
          ),
        ),
        catchError((error, caught) => {
          deps.logger.error({ err: error }, 'escalation pipeline failed; restarting it');
          return caught;
        }),
      )
      .subscribe((incidentId) => wake(incidentId));
  }

  /**
   * Follows the incident streams from `after`; resubscribes from the last seen position when the
   * subscription drops. The store skips every other stream itself, so the rest of the log is never
   * read and parsed for this.
   */
  async function follow(eventStore: EventStore, after: bigint) {
    let position = after;
    while (!stopped) {
      const prefixes = deps.triggeredIncidentsOf
        ? [INCIDENT_STREAM_PREFIX, MAINTENANCE_WINDOW_STREAM_PREFIX]
        : [INCIDENT_STREAM_PREFIX];
      follower = eventStore.subscribeToAll({ after: position, streamPrefixes: prefixes });
      try {
        for await (const event of follower) {
          position = event.position;
          const match = INCIDENT_STREAM.exec(event.streamName);
          if (match) wake(match[1]!);
          else if (event.streamName.startsWith(MAINTENANCE_WINDOW_STREAM_PREFIX))
            wakeTenant(event.metadata.tenantId, event.position);
        }
      } catch (error) {
        if (!stopped) deps.logger.warn({ err: error }, 'escalation: the log subscription dropped; resubscribing');
      }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, RESUBSCRIBE_AFTER_MS));
    }
  }

  /** A window of the tenant changed: look at its triggered incidents this instance owns. */
  function wakeTenant(tenantId: string, position: bigint) {
    deps.triggeredIncidentsOf!(tenantId, position)
      .then((ids) => {
        for (const incidentId of ids) if (!deps.owns || deps.owns(incidentId)) wake(incidentId);
      })
      .catch((error) =>
        deps.logger.error(
          { err: error, tenantId },
          'escalation: could not list the incidents a maintenance window covers',
        ),
      );
  }

  /** Looks at every active incident this instance owns (at start, and when the members change). */
  async function wakeActive() {
    const active = await deps.activeIncidents();
    const owned = deps.owns ? active.filter((id) => deps.owns!(id)) : active;
    for (const incidentId of owned) wake(incidentId);
  }

  let unsubscribeMembers: (() => void) | undefined;
  // Wake-ups are handled from creation on; start() adds the log follower and the incidents to look at.
  startPipeline();
  return {
    wake,
    async start() {
      // Follow first, then list: an incident that changes in between is woken twice, never missed.
      const head = await deps.eventStore.headPosition();
      void follow(deps.eventStore, head);
      unsubscribeMembers = deps.onMembersChange?.(() => {
        if (!stopped)
          wakeActive().catch((error) =>
            deps.logger.error({ err: error }, 'escalation: could not list the incidents after a change of members'),
          );
      });
      await wakeActive();
    },
    async stop() {
      stopped = true;
      unsubscribeMembers?.();
      await follower?.close();
      pipeline?.unsubscribe();
      wakeups.complete();
      pending.set(0);
    },
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settle();
      }),
  };
}
