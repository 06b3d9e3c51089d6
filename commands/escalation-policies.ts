/**
 * Escalation policies: the body of POST and PUT read into the events' shape (the body itself, SPEC.md
 * Escalation policy, is src/contract/bodies/escalation-policies.ts) and the decider. Whether the targets exist is checked by the routes before the
 * decider (that needs the read models, this does not). The model is src/events/escalation-policy.ts.
 */
import type { Decider } from '../src/commanding/decider.js';
import { escalationPolicyBodySchema } from '../src/contract/bodies/escalation-policies.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import {
  evolveEscalationPolicy,
  initialEscalationPolicyState,
  type EscalationPolicyEvent,
  type EscalationPolicyState,
  type EscalationStage,
} from '../src/events/escalation-policy.js';

/** A validated policy in the shape of the events (camelCase), without its id. */
export interface EscalationPolicyDefinition {
  name: string;
  description: string | null;
  stages: EscalationStage[];
  repeatIntervalMinutes: number;
}

/** Parses a request body; throws a ZodError (→ 400 with JSON paths) when it is invalid. */
export function parseEscalationPolicyBody(body: unknown): EscalationPolicyDefinition {
  const parsed = escalationPolicyBodySchema.parse(body);
  return {
    name: parsed.name,
    description: parsed.description ? parsed.description : null,
    stages: parsed.stages.map((stage) => ({
      stageOrder: stage.stage_order,
      delayMinutes: stage.delay_minutes,
      targets: stage.targets.map((target) => ({
        type: target.type,
        id: target.id,
        channels: target.type === 'channel' ? [] : (target.channels ?? []),
      })),
    })),
    repeatIntervalMinutes: parsed.repeat_interval_minutes,
  };
}

export type EscalationPolicyCommand =
  | ({ kind: 'CreateEscalationPolicy'; policyId: string } & EscalationPolicyDefinition)
  | ({ kind: 'ReplaceEscalationPolicy'; policyId: string } & EscalationPolicyDefinition)
  | { kind: 'DeleteEscalationPolicy'; policyId: string };

export const escalationPolicyDecider: Decider<EscalationPolicyState, EscalationPolicyCommand, EscalationPolicyEvent> = {
  initialState: initialEscalationPolicyState,
  evolve: evolveEscalationPolicy,
  decide: (command, state) => {
    switch (command.kind) {
      case 'CreateEscalationPolicy': {
        if (state.status !== 'absent') throw rejectConflict('an escalation policy with this id already exists');
        const { kind: _kind, ...data } = command;
        return [{ type: 'EscalationPolicyCreated', data }];
      }
      case 'ReplaceEscalationPolicy': {
        // A deleted policy stays deleted: its id is never reused, so references to it stay dangling
        // rather than silently pointing at a different policy.
        if (state.status !== 'active') throw rejectNotFound('escalation policy');
        const { kind: _kind, ...data } = command;
        return [{ type: 'EscalationPolicyReplaced', data }];
      }
      case 'DeleteEscalationPolicy':
        if (state.status !== 'active') throw rejectNotFound('escalation policy');
        return [{ type: 'EscalationPolicyDeleted', data: { policyId: command.policyId } }];
    }
  },
};
