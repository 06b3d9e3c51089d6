/** Composition of notification channels and escalation policies: routes over their read models. */
import { channelCommandRoutes } from '../../commands/channel-routes.js';
import { escalationPolicyCommandRoutes } from '../../commands/escalation-policy-routes.js';
import { channelEventRoutes } from '../../queries/channel-events.js';
import { channelQueryRoutes, channelView, findChannel } from '../../queries/channels.js';
import { enabledRulesUsingPolicy, unknownTargetErrors } from '../../queries/escalation-policy-references.js';
import {
  escalationPolicyQueryRoutes,
  escalationPolicyView,
  findEscalationPolicy,
  policiesReferencingChannel,
} from '../../queries/escalation-policies.js';
import { randomUUID } from 'node:crypto';
import type { CommandDeps } from '../commanding/command-handler.js';
import type { AlertMessage, NotifyPort } from '../gateways/notify/port.js';
import { generateSigningSecret } from '../gateways/notify/webhook-signature.js';
import { channelTarget } from '../process/escalation/target-resolution.js';
import type { ReadModelReader } from '../readstore/port.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { PlatformArea } from './area.js';

/** What a test send says: clearly a test, with every field a real alert has. */
const sampleAlert = (publicUrl: string, at: Date): AlertMessage => ({
  incidentId: randomUUID(),
  status: 'triggered',
  severity: 'low',
  source: 'rule',
  title: 'Test alert from warehouse-watch (no action needed)',
  detail: null,
  ruleName: 'Test alert from warehouse-watch (no action needed)',
  metric: 'queue_time_seconds',
  currentValue: 42,
  threshold: 30,
  condition: 'gt',
  cluster: null,
  incidentUrl: `${publicUrl}/api/v1/incidents`,
  occurredAt: at.toISOString(),
});

export function composeNotifications(deps: {
  commandDeps: CommandDeps;
  reader: ReadModelReader;
  secrets: SecretBox;
  notify: NotifyPort;
  publicUrl: string;
  /** Whether a pager key pages back into the tenant's own integration (src/composition/integrations.ts). */
  pagerLoopsBack?: (tenantId: string, integrationKey: string) => Promise<boolean>;
}): PlatformArea {
  const { commandDeps, reader, secrets } = deps;
  const sendTest = async (tenantId: string, id: string) => {
    const doc = await findChannel(reader, secrets, tenantId, id);
    if (!doc) return null;
    const target = channelTarget({ id: doc.id, type: doc.type, config: doc.config, signingSecret: doc.signingSecret });
    const outcome = await deps.notify.deliver(
      target,
      sampleAlert(deps.publicUrl, commandDeps.now()),
      `test:${id}:${randomUUID()}`,
    );
    return {
      ok: outcome.ok,
      target: outcome.target,
      statusCode: outcome.status_code ?? null,
      latencyMs: outcome.latency_ms,
      responseExcerpt: outcome.response_excerpt ?? null,
      error: outcome.error ?? null,
    };
  };
  return {
    processes: [],
    routes: [
      {
        alias: true,
        routes: () =>
          channelCommandRoutes({
            ...commandDeps,
            viewChannel: async (tenantId, id) => {
              const doc = await findChannel(reader, secrets, tenantId, id);
              return doc ? channelView(doc) : null;
            },
            presentChannel: channelView,
            sendTest,
            newSigningSecret: generateSigningSecret,
            pagerLoopsBack: deps.pagerLoopsBack,
            channelReferences: (tenantId, id) => policiesReferencingChannel(reader, tenantId, id),
          }),
      },
      { alias: true, routes: () => channelQueryRoutes({ reader, secrets }) },
      { alias: true, routes: () => channelEventRoutes({ eventStore: commandDeps.eventStore }) },
      {
        alias: false,
        routes: () =>
          escalationPolicyCommandRoutes({
            ...commandDeps,
            unknownTargets: (tenantId, stages) => unknownTargetErrors(reader, tenantId, stages),
            enabledRulesUsing: (tenantId, policyId) => enabledRulesUsingPolicy(reader, tenantId, policyId),
            viewPolicy: async (tenantId, id) => {
              const doc = await findEscalationPolicy(reader, tenantId, id);
              return doc ? escalationPolicyView(doc) : null;
            },
          }),
      },
      { alias: false, routes: () => escalationPolicyQueryRoutes({ reader }) },
    ],
  };
}
