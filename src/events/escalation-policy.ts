/**
 * Escalation policies, the model: events of the `escalationPolicy-<id>` streams (Created and
 * Replaced carry the whole policy, so a fold is trivial and an auditor reads every version of a
 * policy from its stream), the state a command sees, and how events change it.
 */
import { z } from 'zod';
import { DELIVERY_CHANNELS, TARGET_TYPES } from '../contract/vocabulary.js';

export { DELIVERY_CHANNELS, type DeliveryChannel, TARGET_TYPES, type TargetType } from '../contract/vocabulary.js';

const escalationTarget = z.object({
  type: z.enum(TARGET_TYPES),
  id: z.uuid(),
  /** How a person-like target is reached; always empty for channel targets (the channel decides). */
  channels: z.array(z.enum(DELIVERY_CHANNELS)),
});

const escalationStage = z.object({
  stageOrder: z.number().int(),
  delayMinutes: z.number().int(),
  targets: z.array(escalationTarget),
});

const policyFields = {
  policyId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  stages: z.array(escalationStage),
  repeatIntervalMinutes: z.number().int(),
};

export const escalationPolicyEvents = {
  EscalationPolicyCreated: z.object(policyFields),
  EscalationPolicyReplaced: z.object(policyFields),
  EscalationPolicyDeleted: z.object({ policyId: z.uuid() }),
};

export type EscalationTarget = z.infer<typeof escalationTarget>;
export type EscalationStage = z.infer<typeof escalationStage>;
export type EscalationPolicyData = z.infer<typeof escalationPolicyEvents.EscalationPolicyCreated>;

export type EscalationPolicyEvent =
  | { type: 'EscalationPolicyCreated'; data: EscalationPolicyData }
  | { type: 'EscalationPolicyReplaced'; data: EscalationPolicyData }
  | { type: 'EscalationPolicyDeleted'; data: { policyId: string } };

export const escalationPolicyStream = (id: string) => `escalationPolicy-${id}`;

export interface EscalationPolicyState {
  status: 'absent' | 'active' | 'deleted';
}

export const initialEscalationPolicyState = (): EscalationPolicyState => ({ status: 'absent' });

export function evolveEscalationPolicy(
  _state: EscalationPolicyState,
  event: EscalationPolicyEvent,
): EscalationPolicyState {
  switch (event.type) {
    case 'EscalationPolicyCreated':
    case 'EscalationPolicyReplaced':
      return { status: 'active' };
    case 'EscalationPolicyDeleted':
      return { status: 'deleted' };
  }
}
