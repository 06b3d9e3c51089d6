/**
 * The one gate every receiver's routing key passes (the Events API v2 address and the receivers
 * keyed in their address share it, and so share one per-key rate): the key's keyed hash, the
 * per-key rate by that hash (whether the key exists or not, so a refusal says nothing about keys),
 * and the lookup of the live integration whose current or still graced key it is.
 */
import type { IntegrationKind } from '../src/contract/bodies/integrations.js';
import type { Severity } from '../src/contract/vocabulary.js';
import { perMinuteLimit } from '../src/http/per-minute-limit.js';
import { routingKeyHash, sameKeyHash } from './integration-key.js';

/** What a receiver needs of an integration found by its routing key. */
export interface RoutedIntegration {
  id: string;
  tenantId: string;
  kind: IntegrationKind;
  escalationPolicyId: string;
  severityMap: Record<string, Severity>;
  defaultSeverity: Severity;
  /** The kind's own settings (src/contract/bodies/integration-config.ts). */
  config: Record<string, unknown>;
}

export interface RoutingKeyGateDeps {
  tokenKey: () => Promise<Buffer>;
  /** The live integration whose current (or still graced) key has this keyed hash, with that hash. */
  findByKeyHash: (keyHash: string) => Promise<(RoutedIntegration & { matchedHash: string }) | null>;
  eventsPerKeyPerMinute: number;
}

export function routingKeyGate(deps: RoutingKeyGateDeps) {
  const limit = perMinuteLimit(deps.eventsPerKeyPerMinute);
  return {
    eventsPerKeyPerMinute: deps.eventsPerKeyPerMinute,
    hash: async (routingKey: string) => routingKeyHash(await deps.tokenKey(), routingKey),
    /** Takes one event of the key's rate: undefined, or the seconds to wait. */
    take: (keyHash: string) => limit.take(keyHash),
    /** The integration the key routes to, or null (never issued, rotated away, revoked, deleted). */
    find: async (keyHash: string): Promise<RoutedIntegration | null> => {
      const integration = await deps.findByKeyHash(keyHash);
      return integration && sameKeyHash(integration.matchedHash, keyHash) ? integration : null;
    },
  };
}

export type RoutingKeyGate = ReturnType<typeof routingKeyGate>;
