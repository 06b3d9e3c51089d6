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
import type { PlatformArea } from './area.js';

export const notificationProjections = [channelsProjection, escalationPoliciesProjection];

export function composeNotifications(deps: { commandDeps: CommandDeps; reader: ReadModelReader }): PlatformArea {
  const { commandDeps, reader } = deps;
  return {
    projections: notificationProjections,
    processes: [],
    routes: [
      {
        alias: true,
        routes: () =>
          channelCommandRoutes({
            ...commandDeps,
            viewChannel: async (tenantId, id) => {
              const doc = await findChannel(reader, tenantId, id);
              return doc ? channelView(doc) : null;
            },
            channelReferences: (tenantId, id) => policiesReferencingChannel(reader, tenantId, id),
          }),
      },
      { alias: true, routes: () => channelQueryRoutes({ reader }) },
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
