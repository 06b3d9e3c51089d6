import { ESCALATION_EVENT_TYPES } from '../src/events/escalation.js';
import {
  evolveIncident,
  type IncidentState,
  type IncidentStreamEvent,
  type IncidentView,
} from '../src/events/incident.js';
import type { IntegrationAlertReceivedData } from '../src/events/inbound-alert.js';
import type { Projection } from '../src/projection-runner/projection.js';

/** Read model `incidents`: each incident folded with the decider's own evolve, plus its tenant. */
export type IncidentDoc = IncidentView & { tenantId: string; revision: number; [field: string]: unknown };

export const INCIDENTS = 'incidents';

export const incidentsProjection: Projection = {
  name: 'incidents',
  // 3: acknowledgement and resolution cancel the escalation (escalation.status was left `running`).
  // 4: notices_pending (an all-clear or a pager's acknowledgement not yet sent), listed at start.
  // 5: source, subject, title, detail, rule_ids (incidents not opened by one rule's condition).
  // 6: dedup_key, alert_count, last_alert_at, sender (incidents of integrations); repeats counted.
  version: 6,
  handles: [
    'IncidentTriggered',
    'IncidentAcknowledged',
    'IncidentResolved',
    'IncidentNoteAdded',
    'IntegrationAlertReceived',
    ...ESCALATION_EVENT_TYPES,
  ],
  collections: {
    [INCIDENTS]: [
      { name: 'tenant_triggered', fields: ['tenantId', 'triggered_at', 'id'] },
      { name: 'status', fields: ['status'] },
      { name: 'tenant_next_escalation', fields: ['tenantId', 'next_escalation_at', 'id'] },
      { name: 'notices_pending', fields: ['notices_pending'] },
      // A source finds its subject's latest incident (is one open? which ordinal is next?) in one read.
      { name: 'tenant_subject_ordinal', fields: ['tenantId', 'subject', 'ordinal'] },
      { name: 'tenant_source_triggered', fields: ['tenantId', 'source', 'triggered_at'] },
    ],
  },
  async apply(event, writer) {
    if (event.type === 'IntegrationAlertReceived') {
      // A repeated trigger of an open incident's key: counted, paging nobody (not on its stream).
      const alert = event.data as unknown as IntegrationAlertReceivedData;
      if (alert.outcome !== 'repeated' || alert.incidentId === null) return;
      const doc = await writer.get<IncidentDoc>(INCIDENTS, alert.incidentId);
      if (doc) await writer.patch(INCIDENTS, doc.id, { alert_count: doc.alert_count + 1, last_alert_at: alert.at });
      return;
    }
    const incidentId = String(event.data.incidentId);
    const current = await writer.get<IncidentDoc>(INCIDENTS, incidentId);
    const state: IncidentState = current ? { exists: true, ...current } : { exists: false };
    const next = evolveIncident(state, { type: event.type, data: event.data } as IncidentStreamEvent);
    if (!next.exists) return;
    const { exists: _exists, ...view } = next;
    await writer.upsert(INCIDENTS, { ...view, tenantId: event.metadata.tenantId, revision: Number(event.revision) });
  },
};
