/**
 * The escalation manager in virtual time over a real embedded event store: a VirtualTimeScheduler
 * drives its timers and the clock, a recording notify port stands in for the outside world, and a
 * directory of plain maps stands in for the read models.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Registry } from 'prom-client';
import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.js';
import { validatingEventStore } from '../../src/eventstore/validating.js';
import type { EventStore } from '../../src/eventstore/port.js';
import type { StageSnapshot } from '../../src/events/escalation.js';
import { incidentStream } from '../../src/events/incident.js';
import type { AlertMessage, DeliveryOutcome, NotifyPort, NotifyTarget } from '../../src/gateways/notify/port.js';
import {
  createEscalationInstruments,
  createEscalationManager,
  type EscalationManager,
  type EscalationManagerDeps,
} from '../../src/process/escalation/escalation-manager.js';
import type { ContactUser, TargetDirectory } from '../../src/process/escalation/target-resolution.js';

export const T0 = Date.parse('2026-05-01T10:00:00.000Z');
export const TENANT = '00000000-0000-4000-8000-000000000001';
export const POLICY = '00000000-0000-4000-8000-000000000011';
export const minutes = (m: number) => T0 + m * 60_000;

export interface Delivered {
  at: number;
  medium: string;
  to: string;
  status: AlertMessage['status'];
  key: string;
}

export const user = (id: string, extra: Partial<ContactUser> = {}): ContactUser => ({
  id,
  name: id,
  email: `${id.slice(0, 8)}@example.com`,
  phone: null,
  active: true,
  ...extra,
});

export class VirtualClock {
  readonly scheduler = new VirtualTimeScheduler(VirtualAction, Infinity);
  now = () => new Date(T0 + this.scheduler.frame);
}

/** What a scripted delivery answers instead of success (a status code: an HTTP failure with it). */
export type DeliveryScript = (
  delivery: Delivered,
  attempt: number,
) => { status: number } | { kind: 'timeout' | 'network' } | undefined;

export function createHarness(options: {
  stages: StageSnapshot[];
  repeatIntervalMinutes?: number;
  directory?: Partial<TargetDirectory>;
  eventStore?: EventStore;
  clock?: VirtualClock;
  script?: DeliveryScript;
  /** The tenant's maintenance windows, as the read model would list them. */
  maintenanceWindows?: EscalationManagerDeps['maintenanceWindows'];
}) {
  const clock = options.clock ?? new VirtualClock();
  const eventStore =
    options.eventStore ??
    validatingEventStore(openSqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'ww-esc-')), 'events.db') }));
  const delivered: Delivered[] = [];
  const notify: NotifyPort = {
    async deliver(target: NotifyTarget, message: AlertMessage, key: string): Promise<DeliveryOutcome> {
      const to =
        target.medium === 'email'
          ? target.config.recipients.join(',')
          : target.medium === 'sms'
            ? target.phone
            : (target as { channelId: string }).channelId;
      const delivery = { at: clock.now().getTime() - T0, medium: target.medium, to, status: message.status, key };
      delivered.push(delivery);
      const failure = options.script?.(delivery, delivered.filter((d) => d.key === key).length);
      if (failure && 'status' in failure)
        return {
          ok: false,
          medium: target.medium,
          target: to,
          latency_ms: 1,
          status_code: failure.status,
          error: { kind: 'http', message: `answered ${failure.status}` },
        };
      if (failure)
        return {
          ok: false,
          medium: target.medium,
          target: to,
          latency_ms: 1,
          error: { kind: failure.kind, message: failure.kind },
        };
      return { ok: true, medium: target.medium, target: to, latency_ms: 1, status_code: 202 };
    },
  };
  const users = new Map<string, ContactUser>();
  const directory: TargetDirectory = {
    user: async (_tenant, id) => users.get(id) ?? null,
    activeGroupMembers: async () => [],
    onCall: async () => null,
    channel: async () => null,
    ...options.directory,
  };
  const registry = new Registry();
  /** `cluster`: a member's ownership of incidents and what it lists (tests of several members). */
  type ClusterPart = Partial<
    Pick<
      EscalationManagerDeps,
      'owns' | 'onMembersChange' | 'activeIncidents' | 'tenure' | 'eventStore' | 'notify' | 'redeliveryGraceMs'
    >
  > & {
    instruments?: ReturnType<typeof createEscalationInstruments>;
  };
  const newManager = (cluster: ClusterPart = {}): EscalationManager =>
    createEscalationManager({
      eventStore,
      notify,
      directory,
      now: clock.now,
      logger: pino({ level: 'silent' }),
      registry,
      scheduler: clock.scheduler,
      instruments: createEscalationInstruments(new Registry()),
      incidentUrl: (id) => `http://platform.test/api/v1/incidents/${id}`,
      findPolicy: async () => ({
        policyName: 'Primary',
        stages: options.stages,
        repeatIntervalMinutes: options.repeatIntervalMinutes ?? 0,
      }),
      activeIncidents: async () => [],
      maintenanceWindows: options.maintenanceWindows,
      ...cluster,
    });
  const managers: EscalationManager[] = [newManager()];
  /** Managers whose work advanceTo does not wait for (a member stalled in the middle of a reconcile). */
  const unawaited = new Set<EscalationManager>();
  const awaited = () => managers.filter((m) => !unawaited.has(m));

  const meta = () => ({
    tenantId: TENANT,
    actor: 'tester',
    correlationId: 'c',
    causationId: 'c',
    occurredAt: clock.now().toISOString(),
  });
  const append = (incidentId: string, type: string, data: Record<string, unknown>) =>
    eventStore.append(incidentStream(incidentId), [{ type, data, metadata: meta() }]);

  /** Lets every manager handle what is due up to `ms` (virtual), timer by timer, each one's async work awaited. */
  async function advanceTo(ms: number) {
    for (let guard = 0; guard < 1000; guard++) {
      await Promise.all(awaited().map((m) => m.idle()));
      const next = clock.scheduler.actions.find((action) => action.delay <= ms - T0);
      if (!next) break;
      clock.scheduler.maxFrames = next.delay;
      clock.scheduler.flush();
    }
    if (clock.scheduler.frame < ms - T0) clock.scheduler.frame = ms - T0;
    clock.scheduler.maxFrames = Infinity;
    await Promise.all(awaited().map((m) => m.idle()));
  }

  return {
    clock,
    eventStore,
    /** The recording notify port every manager delivers through unless given its own. */
    notify,
    delivered,
    users,
    managers,
    append,
    advanceTo,
    addManager(cluster?: ClusterPart) {
      const manager = newManager(cluster);
      managers.push(manager);
      return manager;
    },
    /** Whether advanceTo waits for this manager's work (not while the test holds it stalled). */
    awaitManager(manager: EscalationManager, await_: boolean) {
      if (await_) unawaited.delete(manager);
      else unawaited.add(manager);
    },
    wakeAll(incidentId: string) {
      for (const manager of managers) manager.wake(incidentId);
    },
    async trigger(incidentId: string) {
      await append(incidentId, 'IncidentTriggered', {
        incidentId,
        ruleId: '00000000-0000-4000-8000-000000000099',
        ruleName: 'Queue wait',
        ordinal: 1,
        currentValue: 95,
        severity: 'high',
        metric: 'queue_time_seconds',
        condition: 'gt',
        threshold: 30,
        envId: '00000000-0000-4000-8000-000000000098',
        clusterId: null,
        escalationPolicyId: POLICY,
        triggeredAt: clock.now().toISOString(),
      });
    },
    /** The incident acknowledged now by `by`; the caller wakes the managers it wants to see it. */
    async acknowledge(incidentId: string, by: string) {
      await append(incidentId, 'IncidentAcknowledged', { incidentId, by, at: clock.now().toISOString() });
    },
    async eventTypes(incidentId: string) {
      return (await eventStore.readStream(incidentStream(incidentId))).map((e) => e.type);
    },
    async firedStages(incidentId: string) {
      return (await eventStore.readStream(incidentStream(incidentId)))
        .filter((e) => e.type === 'EscalationStageFired')
        .map((e) => ({
          stage: e.data.stageOrder as number,
          cycle: e.data.cycle as number,
          at: Date.parse(String(e.data.firedAt)) - T0,
        }));
    },
    async close() {
      for (const manager of managers) await manager.stop();
      await eventStore.close();
    },
  };
}
