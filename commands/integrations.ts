/**
 * Integrations: the command body as clients send it and the decider. The model is
 * src/events/integration.ts; the routes are commands/integration-routes.ts (settings, rotate,
 * revoke) and commands/events-v2-routes.ts (the Events API v2 address senders post to).
 *
 * The decider never sees a routing key: the routes make one, hash it, and hand the decider the hash.
 */
import type { IntegrationBody } from '../src/contract/bodies/integrations.js';
import { integrationConfigSchemas } from '../src/contract/bodies/integration-config.js';
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import {
  evolveIntegration,
  initialIntegrationState,
  type IntegrationEvent,
  type IntegrationSettings,
  type IntegrationState,
} from '../src/events/integration.js';

export { integrationBodySchema, rotateRoutingKeyBodySchema } from '../src/contract/bodies/integrations.js';

export const toIntegrationSettings = (integrationId: string, body: IntegrationBody): IntegrationSettings => ({
  integrationId,
  name: body.name,
  kind: body.kind,
  escalationPolicyId: body.escalation_policy_id,
  severityMap: body.severity_map,
  defaultSeverity: body.default_severity,
  // Validated with the body; parsed again for the kind's defaults (e.g. incident_per).
  config: integrationConfigSchemas[body.kind].parse(body.config) as Record<string, unknown>,
});

/** A routing key as the decider sees it: its keyed hash and hint, never the key. */
export interface HashedKey {
  keyHash: string;
  keyHint: string;
}

export type IntegrationCommand =
  | { kind: 'CreateIntegration'; settings: IntegrationSettings; key: HashedKey }
  | { kind: 'UpdateIntegration'; settings: IntegrationSettings }
  /** graceSeconds: how long the replaced key keeps working (0: it stops now). */
  | { kind: 'RotateIntegrationKey'; integrationId: string; key: HashedKey; graceSeconds: number }
  | { kind: 'RevokeIntegrationKey'; integrationId: string }
  | { kind: 'DeleteIntegration'; integrationId: string };

const sameSettings = (a: IntegrationSettings, b: IntegrationSettings) => JSON.stringify(a) === JSON.stringify(b);

export const integrationDecider: Decider<IntegrationState, IntegrationCommand, IntegrationEvent> = {
  initialState: initialIntegrationState,
  evolve: evolveIntegration,
  decide: (command, state, { now }) => {
    if (command.kind === 'CreateIntegration') {
      if (state.status !== 'absent') throw rejectConflict('an integration with this id already exists');
      return [{ type: 'IntegrationCreated', data: { ...command.settings, ...command.key } }];
    }
    if (state.status !== 'active') throw rejectNotFound('integration');
    switch (command.kind) {
      case 'UpdateIntegration':
        if (command.settings.kind !== state.settings?.kind)
          throw rejectConflict(
            `an integration's kind cannot change (it is ${state.settings?.kind}): its senders are configured for it; create another integration`,
          );
        // A PUT that changes nothing records nothing (a retried save).
        if (sameSettings(state.settings, command.settings)) return [];
        return [{ type: 'IntegrationUpdated', data: command.settings }];
      case 'RotateIntegrationKey': {
        // After a revocation there is no key to keep: the grace applies to a working key only.
        const keep = state.keyHash !== null && command.graceSeconds > 0;
        return [
          {
            type: 'IntegrationKeyRotated',
            data: {
              integrationId: command.integrationId,
              ...command.key,
              previousKeyHash: keep ? state.keyHash : null,
              previousValidUntil: keep ? new Date(now.getTime() + command.graceSeconds * 1000).toISOString() : null,
            },
          },
        ];
      }
      case 'RevokeIntegrationKey':
        // Revoking twice changes nothing: both keys are already gone.
        if (state.keyHash === null) return [];
        return [{ type: 'IntegrationKeyRevoked', data: { integrationId: command.integrationId } }];
      case 'DeleteIntegration':
        return [{ type: 'IntegrationDeleted', data: { integrationId: command.integrationId } }];
    }
  },
};
