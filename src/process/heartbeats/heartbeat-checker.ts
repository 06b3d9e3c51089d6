/**
 * The heartbeat checker: each tick, one indexed read of the heartbeats whose missed ping pages by
 * now (read model `heartbeats`, `dueAt <= now`: every tenant's, never a scan of them all), then,
 * for each one this instance owns (cluster membership, keyed `heartbeat:<id>`), the heartbeat's
 * incident opened through subjectIncidents (source `heartbeat`, subject `heartbeat:<id>`).
 *
 * A heartbeat already paging (its incident open: a failed run, or this silence paged before) is
 * skipped. Just before opening, the heartbeat is read again, so a ping that landed since the
 * tick's read is not paged for. The n-th incident of a subject has a fixed id, so two instances, or
 * one retrying after a crash, open it once; once it is open the read model marks the heartbeat as
 * paged for this silence (projections/heartbeats.ts) and it leaves the due list.
 */
import { HEARTBEATS, type HeartbeatDoc } from '../../../projections/heartbeats.js';
import { isOverdue, missedDetail, timingOfHeartbeat as timingOf } from '../../events/heartbeat-due.js';
import { heartbeatSubject } from '../../events/heartbeat.js';
import type { ReadModelReader } from '../../readstore/port.js';
import type { SubjectIncidents } from '../subject-incidents.js';

export const HEARTBEAT_ACTOR = 'system:heartbeats';
/** Opens at most this many incidents at once within a tick. */
const OPEN_CONCURRENCY = 8;

export interface HeartbeatCheckerDeps {
  reader: ReadModelReader;
  subjectIncidents: Pick<SubjectIncidents, 'open'>;
  now: () => Date;
  /** Whether this instance checks this key (`heartbeat:<id>`) among the cluster's members. */
  owns: (key: string) => boolean;
  newCorrelationId: () => string;
}

export interface CheckReport {
  /** Heartbeats the read returned (due by now, every tenant's). */
  due: number;
  /** Of those, incidents this tick opened. */
  opened: number;
  durationMs: number;
}

export const missedTitle = (name: string) => `${name} missed its heartbeat`;

export function createHeartbeatChecker(deps: HeartbeatCheckerDeps) {
  const page = async (doc: HeartbeatDoc, correlationId: string, nowMs: number): Promise<boolean> => {
    const fresh = await deps.reader.get<HeartbeatDoc>(HEARTBEATS, doc.id);
    if (!fresh || fresh.openIncidentId !== null || !isOverdue(timingOf(fresh), nowMs)) return false;
    const outcome = await deps.subjectIncidents.open(
      { tenantId: fresh.tenantId, actor: HEARTBEAT_ACTOR, correlationId },
      {
        source: 'heartbeat',
        subject: heartbeatSubject(fresh.id),
        title: missedTitle(fresh.name),
        detail: missedDetail({ ...timingOf(fresh), neverPinged: fresh.lastPingAt === null }),
        severity: fresh.severity,
        escalationPolicyId: fresh.escalationPolicyId,
        envId: null,
        clusterId: null,
      },
    );
    return outcome.opened;
  };

  async function tick(): Promise<CheckReport> {
    const started = performance.now();
    const now = deps.now();
    const due = await deps.reader.find<HeartbeatDoc>(
      HEARTBEATS,
      { dueAt: { $lte: now.toISOString() } },
      { sort: [['dueAt', 'asc']] },
    );
    const mine = due.filter((doc) => doc.openIncidentId === null && deps.owns(heartbeatSubject(doc.id)));
    const correlationId = deps.newCorrelationId();
    let opened = 0;
    for (let index = 0; index < mine.length; index += OPEN_CONCURRENCY) {
      const results = await Promise.all(
        mine.slice(index, index + OPEN_CONCURRENCY).map((doc) => page(doc, correlationId, now.getTime())),
      );
      opened += results.filter(Boolean).length;
    }
    return { due: due.length, opened, durationMs: performance.now() - started };
  }

  return { tick };
}

export type HeartbeatChecker = ReturnType<typeof createHeartbeatChecker>;
