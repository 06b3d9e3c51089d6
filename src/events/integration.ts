/**
 * Integrations, the model: senders outside the platform (PagerDuty Events API v2 clients,
 * Alertmanager, CloudWatch through SNS, any JSON) that open, acknowledge and resolve incidents.
 *   `integration-<id>`: the settings and the routing key (created, updated, key rotated or revoked,
 *     deleted). Its revision is the ETag the API hands out.
 *
 * The log never holds a routing key: only its keyed hash (HMAC-SHA256 under the deployment's key
 * for public credentials, src/process/heartbeats/token-key.ts, itself sealed at rest) and its last
 * four characters. A rotation keeps the replaced key's hash working until `previousValidUntil`, so
 * senders can be moved over without dropping events; a revocation ends both keys at once.
 */
import { z } from 'zod';
import { INTEGRATION_KINDS, INTEGRATION_LIMITS } from '../contract/bodies/integrations.js';
import { severitySchema } from './vocabulary.js';

export { INTEGRATION_KINDS, INTEGRATION_LIMITS };

export const integrationSettingsFields = {
  integrationId: z.uuid(),
  name: z.string().min(1).max(INTEGRATION_LIMITS.maxNameChars),
  kind: z.enum(INTEGRATION_KINDS),
  escalationPolicyId: z.uuid(),
  severityMap: z.record(z.string().min(1).max(INTEGRATION_LIMITS.maxSeverityWordChars), severitySchema),
  defaultSeverity: severitySchema,
  /** The kind's own settings (src/contract/bodies/integration-config.ts); absent on integrations made before them: `{}`. */
  config: z.record(z.string(), z.unknown()).optional(),
};

const keyFields = { keyHash: z.string().regex(/^[0-9a-f]{64}$/), keyHint: z.string().max(8) };

export const integrationEvents = {
  IntegrationCreated: z.object({ ...integrationSettingsFields, ...keyFields }),
  IntegrationUpdated: z.object(integrationSettingsFields),
  /** A new key; the replaced one keeps working until previousValidUntil (null: it stops now). */
  IntegrationKeyRotated: z.object({
    integrationId: z.uuid(),
    ...keyFields,
    previousKeyHash: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable(),
    previousValidUntil: z.iso.datetime().nullable(),
  }),
  /** No key until the next rotation (the replaced one too): every event is refused. */
  IntegrationKeyRevoked: z.object({ integrationId: z.uuid() }),
  IntegrationDeleted: z.object({ integrationId: z.uuid() }),
};

type Data<K extends keyof typeof integrationEvents> = z.infer<(typeof integrationEvents)[K]>;
export type IntegrationSettings = Data<'IntegrationUpdated'>;

export type IntegrationEvent = {
  [K in keyof typeof integrationEvents]: { type: K; data: Data<K> };
}[keyof typeof integrationEvents];

export const INTEGRATION_STREAM_PREFIX = 'integration-';
export const integrationStream = (id: string) => `${INTEGRATION_STREAM_PREFIX}${id}`;

export interface IntegrationState {
  status: 'absent' | 'active' | 'deleted';
  settings?: IntegrationSettings;
  /** The current key's hash (null after a revocation, until a rotation). */
  keyHash: string | null;
}

export const initialIntegrationState = (): IntegrationState => ({ status: 'absent', keyHash: null });

export function evolveIntegration(state: IntegrationState, event: IntegrationEvent): IntegrationState {
  switch (event.type) {
    case 'IntegrationCreated': {
      const { keyHash, keyHint: _hint, ...settings } = event.data;
      return { status: 'active', settings, keyHash };
    }
    case 'IntegrationUpdated':
      return { ...state, settings: event.data };
    case 'IntegrationKeyRotated':
      return { ...state, keyHash: event.data.keyHash };
    case 'IntegrationKeyRevoked':
      return { ...state, keyHash: null };
    case 'IntegrationDeleted':
      return { ...state, status: 'deleted', keyHash: null };
  }
}
