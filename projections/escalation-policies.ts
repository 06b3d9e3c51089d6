import type {
  DeliveryChannel,
  EscalationPolicyData,
  EscalationStage,
  TargetType,
} from '../src/events/escalation-policy.js';
import type { Projection } from '../src/projection-runner/projection.js';

/** A stage as the API shows it (snake_case), stored that way so the query is a plain mapping. */
export interface StageView {
  stage_order: number;
  delay_minutes: number;
  targets: { type: TargetType; id: string; channels: DeliveryChannel[] }[];
}

/** Read model `escalationPolicies`: one document per live policy. */
export interface EscalationPolicyDoc {
  id: string;
  tenantId: string;
  name: string;
  description: string | null;
  stages: StageView[];
  repeatIntervalMinutes: number;
  createdAt: string;
  updatedAt: string;
  revision: number;
  /** Every target id, for "which policies reference X" (schedule and user deletion, etc.). */
  targetIds: string[];
  /** Ids of channel targets only (a referenced channel cannot be deleted). */
  channelIds: string[];
  [field: string]: unknown;
}

export const ESCALATION_POLICIES = 'escalationPolicies';

const stageView = (stage: EscalationStage): StageView => ({
  stage_order: stage.stageOrder,
  delay_minutes: stage.delayMinutes,
  targets: stage.targets.map((target) => ({ type: target.type, id: target.id, channels: [...target.channels] })),
});

/** The fields that follow from the policy's content (everything but identity and timestamps). */
function contentFields(policy: EscalationPolicyData) {
  const targets = policy.stages.flatMap((stage) => stage.targets);
  return {
    name: policy.name,
    description: policy.description,
    stages: policy.stages.map(stageView),
    repeatIntervalMinutes: policy.repeatIntervalMinutes,
    targetIds: [...new Set(targets.map((target) => target.id))],
    channelIds: [...new Set(targets.filter((target) => target.type === 'channel').map((target) => target.id))],
  };
}

export const escalationPoliciesProjection: Projection = {
  name: 'escalationPolicies',
  version: 1,
  handles: ['EscalationPolicyCreated', 'EscalationPolicyReplaced', 'EscalationPolicyDeleted'],
  collections: {
    [ESCALATION_POLICIES]: [
      { name: 'tenant_created', fields: ['tenantId', 'createdAt', 'id'] },
      // Multikey in MongoDB; in SQLite the tenantId prefix narrows the scan of json_each.
      { name: 'tenant_targets', fields: ['tenantId', 'targetIds'] },
      { name: 'tenant_channels', fields: ['tenantId', 'channelIds'] },
    ],
  },
  async apply(event, writer) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'EscalationPolicyCreated': {
        const policy = event.data as unknown as EscalationPolicyData;
        const doc: EscalationPolicyDoc = {
          id: policy.policyId,
          tenantId: event.metadata.tenantId,
          ...contentFields(policy),
          createdAt: at,
          updatedAt: at,
          revision: Number(event.revision),
        };
        await writer.upsert(ESCALATION_POLICIES, doc);
        break;
      }
      case 'EscalationPolicyReplaced': {
        const policy = event.data as unknown as EscalationPolicyData;
        await writer.patch(ESCALATION_POLICIES, policy.policyId, {
          ...contentFields(policy),
          updatedAt: at,
          revision: Number(event.revision),
        });
        break;
      }
      case 'EscalationPolicyDeleted':
        await writer.delete(ESCALATION_POLICIES, String(event.data.policyId));
        break;
    }
  },
};
