import type { IntegrationChangeReceivedData } from '../src/events/inbound-alert.js';
import type { Projection } from '../src/projection-runner/projection.js';

/**
 * Read model `change_events`: the change events integrations received (`POST /v2/change/enqueue`),
 * one document each, on the tenant's record beside its incidents; they page nobody.
 */
export interface ChangeEventDoc extends Omit<IntegrationChangeReceivedData, 'changeId' | 'at'> {
  id: string;
  tenantId: string;
  receivedAt: string;
  [field: string]: unknown;
}

export const CHANGE_EVENTS = 'change_events';

export const changeEventsProjection: Projection = {
  name: 'change-events',
  version: 1,
  handles: ['IntegrationChangeReceived'],
  collections: {
    [CHANGE_EVENTS]: [
      { name: 'tenant_received', fields: ['tenantId', 'receivedAt', 'id'] },
      { name: 'tenant_integration_received', fields: ['tenantId', 'integrationId', 'receivedAt'] },
    ],
  },
  async apply(event, writer) {
    const { changeId, at, ...change } = event.data as unknown as IntegrationChangeReceivedData;
    const doc: ChangeEventDoc = { ...change, id: changeId, tenantId: event.metadata.tenantId, receivedAt: at };
    await writer.upsert(CHANGE_EVENTS, doc);
  },
};
