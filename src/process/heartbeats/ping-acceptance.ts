/**
 * What an accepted ping does: one HeartbeatPinged on the heartbeat's ping stream (the audit of
 * every run; the per-address rate limit bounds how many), waited for in the read model so the
 * checker sees the new clock, then the page: a failed run opens the heartbeat's incident at once
 * (its message as the detail), a good one resolves the open one (missed or failed), saying so. A
 * disabled heartbeat records its pings and pages for nothing.
 */
import { HEARTBEATS, type HeartbeatDoc } from '../../../projections/heartbeats.js';
import type { CommandDeps } from '../../commanding/command-handler.js';
import { heartbeatPingStream, heartbeatSubject, type PingStatus } from '../../events/heartbeat.js';
import type { ReadModelReader } from '../../readstore/port.js';
import type { SubjectIncidents } from '../subject-incidents.js';

export const PING_ACTOR = 'system:heartbeat-ping';

export interface PingAcceptanceDeps extends CommandDeps {
  reader: ReadModelReader;
  subjectIncidents: Pick<SubjectIncidents, 'open' | 'resolve'>;
}

export const failedTitle = (name: string) => `${name} reported a failed run`;

export function pingAcceptance(deps: PingAcceptanceDeps) {
  return async (
    heartbeat: { id: string; tenantId: string },
    ping: { status: PingStatus; message: string | null },
    correlationId: string,
  ): Promise<void> => {
    const at = deps.now().toISOString();
    const metadata = {
      tenantId: heartbeat.tenantId,
      actor: PING_ACTOR,
      correlationId,
      causationId: correlationId,
      occurredAt: at,
    };
    const appended = await deps.eventStore.append(
      heartbeatPingStream(heartbeat.id),
      [{ type: 'HeartbeatPinged', data: { heartbeatId: heartbeat.id, ...ping, at }, metadata }],
      { expectedRevision: 'any' },
    );
    await deps.waitForProjections(appended.position);
    const doc = await deps.reader.get<HeartbeatDoc>(HEARTBEATS, heartbeat.id);
    if (!doc || doc.deleted) return;
    const cause = { tenantId: heartbeat.tenantId, actor: PING_ACTOR, correlationId };
    const subject = heartbeatSubject(heartbeat.id);
    if (ping.status === 'success') {
      await deps.subjectIncidents.resolve(cause, subject, `a ping arrived at ${at}: the job ran`);
      return;
    }
    if (!doc.enabled) return;
    await deps.subjectIncidents.open(cause, {
      source: 'heartbeat',
      subject,
      title: failedTitle(doc.name),
      detail: ping.message ?? 'the run reported status=fail, with no message',
      severity: doc.severity,
      escalationPolicyId: doc.escalationPolicyId,
      envId: null,
      clusterId: null,
    });
  };
}
