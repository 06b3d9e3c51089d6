/**
 * Composition of integrations (docs/integrations.md): their command and query routes under the
 * API, and the public Events API v2 address (`/v2/enqueue`, `/v2/change/enqueue`), whose routing
 * keys are hashed with the deployment's key for public credentials (the heartbeat ping tokens'),
 * and the receivers keyed in their address (`/integrations/<kind>/<key>`: Alertmanager, SNS,
 * generic JSON), which share its key gate (one per-key rate for every address of a key). SNS's
 * certificates and confirmations go out through the guarded HTTP client notifications use.
 */
import { EVENTS_V2_PATHS, eventsV2Routes } from '../../commands/events-v2-routes.js';
import { isRoutingKeyShape, routingKeyHash } from '../../commands/integration-key.js';
import { integrationCommandRoutes } from '../../commands/integration-routes.js';
import { receiverRoutes } from '../../commands/receiver-routes.js';
import { routingKeyGate } from '../../commands/routing-key-gate.js';
import { integrationNameKey } from '../../projections/integrations.js';
import { findEscalationPolicy } from '../../queries/escalation-policies.js';
import {
  findIntegration,
  integrationByKeyHash,
  integrationNamed,
  integrationQueryRoutes,
  integrationView,
} from '../../queries/integrations.js';
import type { CommandDeps } from '../commanding/command-handler.js';
import type { Config } from '../config.js';
import type { IncidentState } from '../events/incident.js';
import { createGuardedClient } from '../gateways/http/guarded-client.js';
import { snsGateway } from '../gateways/sns/sns-certificates.js';
import type { ApiModule } from '../http/app.js';
import { alertIntake } from '../process/inbound/alert-intake.js';
import { changeIntake } from '../process/inbound/change-intake.js';
import type { ReadStore } from '../readstore/port.js';
import type { PlatformArea } from './area.js';

export interface IntegrationsDeps {
  config: Config;
  commandDeps: CommandDeps;
  readStore: ReadStore;
  /** The deployment's key for keyed hashes of public credentials (src/process/heartbeats/token-key.ts). */
  tokenKey: () => Promise<Buffer>;
  /** Counts a resolution a sender made, as the API's resolve does. */
  onIncidentResolved: (outcome: { events: unknown[]; state: IncidentState }) => void;
}

export function composeIntegrations(deps: IntegrationsDeps) {
  const { commandDeps, readStore: reader, config, tokenKey } = deps;
  const acceptAlert = alertIntake({ ...commandDeps, reader, onResolved: deps.onIncidentResolved });

  const gate = routingKeyGate({
    tokenKey,
    findByKeyHash: async (keyHash) => {
      const doc = await integrationByKeyHash(reader, keyHash, commandDeps.now());
      if (!doc) return null;
      const matchedHash = doc.keyHash === keyHash ? doc.keyHash : (doc.previousKeyHash ?? '');
      return { ...doc, config: doc.config ?? {}, matchedHash };
    },
    eventsPerKeyPerMinute: config.integrations.eventsPerKeyPerMinute,
  });
  // Fetched while SNS waits for its answer: one attempt each (SNS itself retries what fails).
  const outbound = createGuardedClient({
    allowPrivateNetworks: config.outboundAllowPrivateNetworks,
    retry: { maxAttempts: 1 },
    keepAlive: false,
    userAgent: 'warehouse-watch-sns/1',
  });
  const sns = snsGateway({
    client: outbound,
    trustedUrl: config.integrations.snsTrustedUrlPattern,
    now: commandDeps.now,
  });

  const routes: ApiModule[] = [
    {
      alias: false,
      routes: () =>
        integrationCommandRoutes({
          ...commandDeps,
          policyExists: async (tenantId, id) => (await findEscalationPolicy(reader, tenantId, id)) !== null,
          integrationNamed: async (tenantId, name) =>
            (await integrationNamed(reader, tenantId, integrationNameKey(name)))?.id ?? null,
          viewIntegration: async (tenantId, id) => {
            const doc = await findIntegration(reader, tenantId, id);
            return doc ? integrationView(doc, commandDeps.now()) : null;
          },
          tokenKey,
          publicUrl: config.notify.publicUrl,
        }),
    },
    {
      alias: false,
      routes: () => integrationQueryRoutes({ reader, eventStore: commandDeps.eventStore, now: commandDeps.now }),
    },
  ];

  // Pager events go to our own Events API v2 address (PAGER_EVENTS_URL is this platform's /v2/enqueue).
  const ownEventsAddresses = new Set(
    [config.notify.publicUrl, config.baseUrl].map((url) => `${new URL(url).origin}${EVENTS_V2_PATHS.alert}`),
  );
  const pagerUrl = config.notify.pagerEventsUrl;
  const pagerEventsAreOurs =
    pagerUrl !== undefined &&
    ownEventsAddresses.has(`${new URL(pagerUrl).origin}${new URL(pagerUrl).pathname.replace(/\/$/, '')}`);

  return {
    area: { routes, processes: [] } satisfies PlatformArea,
    /** Whether a pager channel's key would page back into one of the tenant's own integrations. */
    pagerLoopsBack: async (tenantId: string, integrationKey: string): Promise<boolean> => {
      if (!pagerEventsAreOurs || !isRoutingKeyShape(integrationKey)) return false;
      const doc = await integrationByKeyHash(
        reader,
        routingKeyHash(await tokenKey(), integrationKey),
        commandDeps.now(),
      );
      return doc?.tenantId === tenantId;
    },
    acceptAlert,
    publicRoutes: () => [
      eventsV2Routes({ gate, acceptAlert, acceptChange: changeIntake(commandDeps) }),
      receiverRoutes({ gate, acceptAlert, sns }),
    ],
  };
}
