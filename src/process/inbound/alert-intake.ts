/**
 * What an accepted alert from outside does (every receiver calls this with its NormalizedAlert):
 * find the dedup key's latest incident, decide (commands/inbound-alerts.ts), and append.
 *
 *   - The key's latest incident: the incidents read model names its latest ordinal; while the one
 *     read is resolved, the streams of the ordinals after it are read until one is missing (a read
 *     model behind by an incident or two still finds the newest), and the latest is folded from its
 *     own stream, never from the read model, so a resolution a moment ago is seen.
 *   - An opening appends IncidentTriggered expecting no stream (its id is fixed by the key and the
 *     ordinal): of two instances or two requests opening it at once, one lands; the other decides
 *     again and finds a repeat. An acknowledgement or resolution expects the revision read, so a
 *     change in between is decided again too.
 *   - What the alert did is appended to the integration's inbox without reading: a repeat is that
 *     one append (it pages nobody and wakes no escalation).
 *   - The open incident last seen of each key is kept (at most OPEN_KEYS_KEPT keys): the next event
 *     of that key reads only what its stream gained since (usually nothing) instead of the read
 *     model and the whole stream. The stream is still read, so a resolution another request or
 *     instance appended meanwhile is seen exactly as a full read would see it.
 *
 * The escalation manager follows the log: an IncidentTriggered pages the integration's policy.
 */
import { decideInboundAlert, type InboundAlertEvent } from '../../../commands/inbound-alerts.js';
import { INCIDENTS, type IncidentDoc } from '../../../projections/incidents.js';
import { loadStream, toDomainEvent, type CommandDeps } from '../../commanding/command-handler.js';
import { isWrongExpectedRevision, type EventMetadata } from '../../eventstore/port.js';
import {
  evolveIncident,
  incidentIdFor,
  incidentStream,
  initialIncidentState,
  type IncidentState,
  type IncidentStreamEvent,
} from '../../events/incident.js';
import {
  integrationActor,
  integrationInboxStream,
  integrationSubject,
  type AlertOutcome,
  type NormalizedAlert,
} from '../../events/inbound-alert.js';
import type { ReadModelReader } from '../../readstore/port.js';

/** A decision lost to another writer this many times in a row is given up (the sender retries a 5xx). */
const MAX_ATTEMPTS = 20;

export interface AlertIntakeDeps extends CommandDeps {
  reader: ReadModelReader;
  /** Told of every resolution a sender made (the resolutions counter, as the API's resolve). */
  onResolved?: (outcome: { events: unknown[]; state: IncidentState }) => void;
}

export interface IntakeOutcome {
  outcome: AlertOutcome;
  incidentId: string | null;
}

interface Latest {
  state: IncidentState;
  revision: bigint | null;
}

/** The open incidents kept, oldest dropped first (an entry is a few hundred bytes). */
export const OPEN_KEYS_KEPT = 10_000;

interface KeptIncident {
  tenantId: string;
  ordinal: number;
  state: IncidentState;
  revision: bigint;
}

export function alertIntake(deps: AlertIntakeDeps) {
  const incidentAt = async (tenantId: string, subject: string, ordinal: number): Promise<Latest> => {
    const loaded = await loadStream<IncidentState, IncidentStreamEvent>(
      deps.eventStore,
      { initialState: initialIncidentState, evolve: evolveIncident },
      incidentStream(incidentIdFor(subject, ordinal)),
      tenantId,
      'incident',
    );
    return { state: loaded.state, revision: loaded.revision };
  };

  const kept = new Map<string, KeptIncident>();
  const keep = (subject: string, entry: KeptIncident) => {
    kept.delete(subject);
    kept.set(subject, entry);
    if (kept.size > OPEN_KEYS_KEPT) kept.delete(kept.keys().next().value!);
  };

  /** The kept open incident brought up to date from its stream, or null when there is none. */
  async function keptIncident(tenantId: string, subject: string): Promise<(Latest & { ordinal: number }) | null> {
    const entry = kept.get(subject);
    if (!entry || entry.tenantId !== tenantId) return null;
    const stream = incidentStream(incidentIdFor(subject, entry.ordinal));
    const gained = await deps.eventStore.readStream(stream, { fromRevision: entry.revision + 1n });
    const state = gained.map((e) => toDomainEvent<IncidentStreamEvent>(e)).reduce(evolveIncident, entry.state);
    return { state, revision: gained.at(-1)?.revision ?? entry.revision, ordinal: entry.ordinal };
  }

  async function latestOfKey(tenantId: string, subject: string): Promise<Latest> {
    let latest: Latest;
    let ordinal: number;
    const fromKept = await keptIncident(tenantId, subject);
    if (fromKept) {
      ({ ordinal, ...latest } = fromKept);
    } else {
      const [doc] = await deps.reader.find<IncidentDoc>(
        INCIDENTS,
        { tenantId, subject },
        { sort: [['ordinal', 'desc']], limit: 1 },
      );
      ordinal = doc?.ordinal ?? 0;
      latest =
        ordinal === 0 ? { state: { exists: false }, revision: null } : await incidentAt(tenantId, subject, ordinal);
    }
    for (;;) {
      // An open incident is the key's latest: the decider opens the next ordinal only after this
      // one is resolved, and a resolution is final. So a repeat (most events) reads one stream.
      if (latest.state.exists && latest.state.status !== 'resolved') {
        keep(subject, { tenantId, ordinal, state: latest.state, revision: latest.revision! });
        return latest;
      }
      kept.delete(subject);
      const next = await incidentAt(tenantId, subject, ordinal + 1);
      if (!next.state.exists) return latest;
      ordinal += 1;
      latest = next;
    }
  }

  return async (
    tenantId: string,
    alert: NormalizedAlert,
    escalationPolicyId: string,
    correlationId: string,
  ): Promise<IntakeOutcome> => {
    const subject = integrationSubject(alert.integrationId, alert.dedupKey);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const latest = await latestOfKey(tenantId, subject);
      const now = deps.now();
      const metadata: EventMetadata = {
        tenantId,
        actor: integrationActor(alert.integrationId),
        correlationId,
        causationId: correlationId,
        occurredAt: now.toISOString(),
      };
      const events = decideInboundAlert(alert, latest.state, escalationPolicyId, now);
      const incidentEvents = events.filter((e) => e.type !== 'IntegrationAlertReceived') as IncidentStreamEvent[];
      const record = events.find((e) => e.type === 'IntegrationAlertReceived') as Extract<
        InboundAlertEvent,
        { type: 'IntegrationAlertReceived' }
      >;
      let position: bigint | null = null;
      if (incidentEvents.length > 0) {
        const opening = incidentEvents[0]!.type === 'IncidentTriggered';
        try {
          const appended = await deps.eventStore.append(
            incidentStream(String(incidentEvents[0]!.data.incidentId)),
            incidentEvents.map((e) => ({ type: e.type, data: e.data as Record<string, unknown>, metadata })),
            { expectedRevision: opening ? 'no_stream' : (latest.revision ?? 'no_stream') },
          );
          position = appended.position;
        } catch (error) {
          if (isWrongExpectedRevision(error)) continue; // another writer moved the key on: decide again
          throw error;
        }
        if (incidentEvents.some((e) => e.type === 'IncidentResolved') && deps.onResolved)
          deps.onResolved({ events: incidentEvents, state: incidentEvents.reduce(evolveIncident, latest.state) });
      }
      const recorded = await deps.eventStore.append(
        integrationInboxStream(alert.integrationId),
        [{ type: record.type, data: record.data, metadata }],
        { expectedRevision: 'any' },
      );
      // An incident changed: answered once the read models show it (read your writes); a repeat is not waited for.
      if (position !== null) await deps.waitForProjections(recorded.position);
      return { outcome: record.data.outcome, incidentId: record.data.incidentId };
    }
    throw new Error(`the alert of ${subject} lost ${MAX_ATTEMPTS} races in a row to other writers`);
  };
}

export type AlertIntake = ReturnType<typeof alertIntake>;
