import { dueAtMs } from '../src/events/heartbeat-due.js';
import { heartbeatIdOfSubject, type HeartbeatPingedData, type HeartbeatSettings } from '../src/events/heartbeat.js';
import type { Projection } from '../src/projection-runner/projection.js';
import type { ReadModelWriter } from '../src/readstore/port.js';

/**
 * Read model `heartbeats`: one document per monitor (deleted ones kept and marked), with its last
 * ping and its ping address's keyed hash (never the token).
 *
 * `dueAt` is the instant a missed ping pages, so the checker reads only the heartbeats due now in
 * one indexed query (`dueAt <= now`), never all of them. It is far in the future (NEVER) when there
 * is nothing to check: disabled, deleted, or already paged for this silence (the heartbeat's
 * incident opened at or after its due instant: a person who resolves that incident while the job is
 * still silent is not paged again every tick; the next ping starts the clock again). The open
 * incident of the heartbeat (`openIncidentId`) comes from the incidents' own events (subject
 * `heartbeat:<id>`), so the checker skips a heartbeat that is already paging.
 */
export interface HeartbeatDoc extends Omit<HeartbeatSettings, 'heartbeatId'> {
  id: string;
  tenantId: string;
  /** The name folded for the tenant's uniqueness check (case and compatibility forms ignored). */
  nameKey: string;
  tokenHash: string | null;
  tokenHint: string | null;
  tokenIssuedAt: string | null;
  /** What the clock runs from: the last ping, else the creation or the last time it was enabled. */
  since: string;
  lastPingAt: string | null;
  lastPingStatus: 'success' | 'fail' | null;
  lastPingMessage: string | null;
  dueAt: string;
  openIncidentId: string | null;
  deleted: boolean;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  revision: number;
  [field: string]: unknown;
}

export const HEARTBEATS = 'heartbeats';
/** ISO strings compare in time order: nothing is due after this. */
export const NEVER = '9999-12-31T23:59:59.999Z';

export const heartbeatNameKey = (name: string) =>
  name
    .normalize('NFKC')
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
    .toUpperCase()
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim();

const dueAtOf = (doc: Pick<HeartbeatDoc, 'enabled' | 'deleted' | 'since' | 'intervalSeconds' | 'graceSeconds'>) =>
  doc.enabled && !doc.deleted ? new Date(dueAtMs(doc)).toISOString() : NEVER;

async function patchTiming(writer: ReadModelWriter, current: HeartbeatDoc, fields: Partial<HeartbeatDoc>) {
  const next = { ...current, ...fields };
  await writer.patch(HEARTBEATS, current.id, { ...fields, dueAt: dueAtOf(next) });
}

export const heartbeatsProjection: Projection = {
  name: 'heartbeats',
  version: 1,
  handles: [
    'HeartbeatCreated',
    'HeartbeatUpdated',
    'HeartbeatTokenRotated',
    'HeartbeatTokenRevoked',
    'HeartbeatDeleted',
    'HeartbeatPinged',
    'IncidentTriggered',
    'IncidentResolved',
  ],
  collections: {
    [HEARTBEATS]: [
      { name: 'tenant_created', fields: ['tenantId', 'createdAt', 'id'] },
      { name: 'tenant_name', fields: ['tenantId', 'nameKey'] },
      // The ping's lookup, by the address's keyed hash.
      { name: 'token', fields: ['tokenHash'] },
      // The checker's one read per tick: the heartbeats due now.
      { name: 'due', fields: ['dueAt'] },
      { name: 'open_incident', fields: ['openIncidentId'] },
    ],
  },
  async apply(event, writer) {
    const at = event.metadata.occurredAt;
    const revision = Number(event.revision);
    const data = event.data as Record<string, unknown>;
    const get = (id: unknown) => writer.get<HeartbeatDoc>(HEARTBEATS, String(id));
    switch (event.type) {
      case 'HeartbeatCreated': {
        const { heartbeatId, tokenHash, tokenHint, ...settings } = data as unknown as HeartbeatSettings & {
          tokenHash: string;
          tokenHint: string;
        };
        const doc: HeartbeatDoc = {
          ...settings,
          id: heartbeatId,
          tenantId: event.metadata.tenantId,
          nameKey: heartbeatNameKey(settings.name),
          tokenHash,
          tokenHint,
          tokenIssuedAt: at,
          since: at,
          lastPingAt: null,
          lastPingStatus: null,
          lastPingMessage: null,
          dueAt: NEVER,
          openIncidentId: null,
          deleted: false,
          createdAt: at,
          createdBy: event.metadata.actor,
          updatedAt: at,
          revision,
        };
        await writer.upsert(HEARTBEATS, { ...doc, dueAt: dueAtOf(doc) });
        break;
      }
      case 'HeartbeatUpdated': {
        const current = await get(data.heartbeatId);
        if (!current) break;
        const { heartbeatId: _id, ...settings } = data as unknown as HeartbeatSettings;
        // Enabled again: the clock starts now, or a monitor paused for a week would page at once.
        const since = settings.enabled && !current.enabled ? at : current.since;
        await patchTiming(writer, current, {
          ...settings,
          nameKey: heartbeatNameKey(settings.name),
          since,
          updatedAt: at,
          revision,
        });
        break;
      }
      case 'HeartbeatTokenRotated':
        await writer.patch(HEARTBEATS, String(data.heartbeatId), {
          tokenHash: String(data.tokenHash),
          tokenHint: String(data.tokenHint),
          tokenIssuedAt: at,
          updatedAt: at,
          revision,
        });
        break;
      case 'HeartbeatTokenRevoked':
        await writer.patch(HEARTBEATS, String(data.heartbeatId), {
          tokenHash: null,
          tokenHint: null,
          tokenIssuedAt: null,
          updatedAt: at,
          revision,
        });
        break;
      case 'HeartbeatDeleted': {
        const current = await get(data.heartbeatId);
        if (!current) break;
        await patchTiming(writer, current, { deleted: true, tokenHash: null, updatedAt: at, revision });
        break;
      }
      case 'HeartbeatPinged': {
        const ping = data as unknown as HeartbeatPingedData;
        const current = await get(ping.heartbeatId);
        if (!current) break;
        // Pings on their own stream: the settings' revision (the ETag) stays as it is.
        await patchTiming(writer, current, {
          since: ping.at,
          lastPingAt: ping.at,
          lastPingStatus: ping.status,
          lastPingMessage: ping.message,
        });
        break;
      }
      case 'IncidentTriggered': {
        const heartbeatId = heartbeatIdOfSubject(String(data.subject ?? ''));
        if (heartbeatId === null || data.source !== 'heartbeat') break;
        const current = await get(heartbeatId);
        if (!current) break;
        // Opened at or after the due instant: the missed page for this silence; nothing more to check.
        const missed = current.dueAt !== NEVER && String(data.triggeredAt) >= current.dueAt;
        await writer.patch(HEARTBEATS, heartbeatId, {
          openIncidentId: String(data.incidentId),
          ...(missed ? { dueAt: NEVER } : {}),
        });
        break;
      }
      case 'IncidentResolved': {
        const [doc] = await writer.find<HeartbeatDoc>(HEARTBEATS, { openIncidentId: String(data.incidentId) });
        if (doc) await writer.patch(HEARTBEATS, doc.id, { openIncidentId: null });
        break;
      }
    }
  },
};
