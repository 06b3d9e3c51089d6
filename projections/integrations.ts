import { heartbeatNameKey } from './heartbeats.js';
import type { IntegrationAlertReceivedData } from '../src/events/inbound-alert.js';
import type { IntegrationSettings } from '../src/events/integration.js';
import type { Projection } from '../src/projection-runner/projection.js';

/**
 * Read model `integrations`: one document per integration (deleted ones kept and marked), with its
 * routing key's keyed hash (never the key), the replaced key's hash while its grace lasts, and what
 * it has received (last event, count) from its inbox stream.
 */
export interface IntegrationDoc extends Omit<IntegrationSettings, 'integrationId'> {
  id: string;
  tenantId: string;
  /** The name folded for the tenant's uniqueness check (case and compatibility forms ignored). */
  nameKey: string;
  keyHash: string | null;
  keyHint: string | null;
  keyIssuedAt: string | null;
  previousKeyHash: string | null;
  previousValidUntil: string | null;
  lastEventAt: string | null;
  eventsReceived: number;
  deleted: boolean;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  revision: number;
  [field: string]: unknown;
}

export const INTEGRATIONS = 'integrations';
export const integrationNameKey = heartbeatNameKey;

export const integrationsProjection: Projection = {
  name: 'integrations',
  version: 1,
  handles: [
    'IntegrationCreated',
    'IntegrationUpdated',
    'IntegrationKeyRotated',
    'IntegrationKeyRevoked',
    'IntegrationDeleted',
    'IntegrationAlertReceived',
    'IntegrationChangeReceived',
  ],
  collections: {
    [INTEGRATIONS]: [
      { name: 'tenant_created', fields: ['tenantId', 'createdAt', 'id'] },
      { name: 'tenant_name', fields: ['tenantId', 'nameKey'] },
      // An event's lookup, by the routing key's keyed hash (the current key, or the replaced one).
      { name: 'key', fields: ['keyHash'] },
      { name: 'previous_key', fields: ['previousKeyHash'] },
    ],
  },
  async apply(event, writer) {
    const at = event.metadata.occurredAt;
    const revision = Number(event.revision);
    const data = event.data as Record<string, unknown>;
    const id = String(data.integrationId);
    switch (event.type) {
      case 'IntegrationCreated': {
        const { integrationId, keyHash, keyHint, ...settings } = data as unknown as IntegrationSettings & {
          keyHash: string;
          keyHint: string;
        };
        const doc: IntegrationDoc = {
          ...settings,
          id: integrationId,
          tenantId: event.metadata.tenantId,
          nameKey: integrationNameKey(settings.name),
          keyHash,
          keyHint,
          keyIssuedAt: at,
          previousKeyHash: null,
          previousValidUntil: null,
          lastEventAt: null,
          eventsReceived: 0,
          deleted: false,
          createdAt: at,
          createdBy: event.metadata.actor,
          updatedAt: at,
          revision,
        };
        await writer.upsert(INTEGRATIONS, doc);
        break;
      }
      case 'IntegrationUpdated': {
        const { integrationId: _id, ...settings } = data as unknown as IntegrationSettings;
        await writer.patch(INTEGRATIONS, id, {
          ...settings,
          nameKey: integrationNameKey(settings.name),
          updatedAt: at,
          revision,
        });
        break;
      }
      case 'IntegrationKeyRotated':
        await writer.patch(INTEGRATIONS, id, {
          keyHash: String(data.keyHash),
          keyHint: String(data.keyHint),
          keyIssuedAt: at,
          previousKeyHash: (data.previousKeyHash as string | null) ?? null,
          previousValidUntil: (data.previousValidUntil as string | null) ?? null,
          updatedAt: at,
          revision,
        });
        break;
      case 'IntegrationKeyRevoked':
      case 'IntegrationDeleted':
        await writer.patch(INTEGRATIONS, id, {
          keyHash: null,
          keyHint: null,
          keyIssuedAt: null,
          previousKeyHash: null,
          previousValidUntil: null,
          ...(event.type === 'IntegrationDeleted' ? { deleted: true } : {}),
          updatedAt: at,
          revision,
        });
        break;
      case 'IntegrationAlertReceived':
      case 'IntegrationChangeReceived': {
        // The inbox is its own stream: the settings' revision (the ETag) stays as it is.
        const current = await writer.get<IntegrationDoc>(INTEGRATIONS, id);
        if (!current) break;
        const received = event.type === 'IntegrationAlertReceived' ? (data as IntegrationAlertReceivedData).at : at;
        await writer.patch(INTEGRATIONS, id, { lastEventAt: received, eventsReceived: current.eventsReceived + 1 });
        break;
      }
    }
  },
};
