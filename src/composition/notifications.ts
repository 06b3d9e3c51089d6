/** Composition of notification channels and escalation policies: routes over their read models. */
import { channelCommandRoutes } from '../../commands/channel-routes.js';
import { escalationPolicyCommandRoutes } from '../../commands/escalation-policy-routes.js';
import { channelsProjection } from '../../projections/channels.js';
import { escalationPoliciesProjection } from '../../projections/escalation-policies.js';
import { channelQueryRoutes, channelView, findChannel } from '../../queries/channels.js';
import { enabledRulesUsingPolicy, unknownTargetErrors } from '../../queries/escalation-policy-references.js';
import { escalationPolicyQueryRoutes, escalationPolicyView, findEscalationPolicy, policiesReferencingChannel } from '../../queries/escalation-policies.js';
import type { CommandDeps } from '../commanding/command-handler.js';
import type { ReadModelReader } from '../readstore/port.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { PlatformArea } from './area.js';

/** The channels read model seals secrets with the same box as the event log. */
export const notificationProjections = (secrets: SecretBox) => [channelsProjection(secrets), escalationPoliciesProjection];

export function composeNotifications(deps: { commandDeps: CommandDeps; reader: ReadModelReader; secrets: SecretBox }): PlatformArea {
  const { commandDeps, reader, secrets } = deps;
  return {
    projections: notificationProjections(secrets),
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
            channelReferences: (tenantId, id) => policiesReferencingChannel(reader, tenantId, id),
          }),
      },
      { alias: true, routes: () => channelQueryRoutes({ reader, secrets }) },
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
