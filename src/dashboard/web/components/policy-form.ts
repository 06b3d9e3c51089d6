/**
 * An escalation policy as the editor holds it and as the API takes it. Targets are chosen from
 * lists by name (`type:id`), never typed; the first stage's delay is always 0 (it fires when the
 * incident opens), and stage_order follows the order on screen, so reordering cannot misnumber.
 */
import type { EscalationPolicy, EscalationPolicyDraft, PersonMedium, TargetType } from '../api/types';

export interface TargetForm {
  key: number;
  /** `type:id` of the chosen target, '' until one is chosen. */
  choice: string;
  channels: PersonMedium[];
}

export interface StageForm {
  key: number;
  delay: string;
  targets: TargetForm[];
}

export interface PolicyForm {
  name: string;
  description: string;
  repeat: string;
  stages: StageForm[];
}

export const MEDIA: PersonMedium[] = ['email', 'sms', 'chat'];

let keys = 0;
export const nextKey = () => ++keys;

export const emptyTarget = (): TargetForm => ({ key: nextKey(), choice: '', channels: ['email'] });
export const emptyStage = (delay: string): StageForm => ({ key: nextKey(), delay, targets: [emptyTarget()] });

export function policyForm(policy?: EscalationPolicy): PolicyForm {
  if (!policy) return { name: '', description: '', repeat: '0', stages: [emptyStage('0')] };
  return {
    name: policy.name,
    description: policy.description ?? '',
    repeat: String(policy.repeat_interval_minutes),
    stages: policy.stages.map((stage) => ({
      key: nextKey(),
      delay: String(stage.delay_minutes),
      targets: stage.targets.map((target) => ({
        key: nextKey(),
        choice: `${target.type}:${target.id}`,
        channels: target.type === 'channel' ? [] : target.channels,
      })),
    })),
  };
}

/** A number field as typed: a whole number is sent as one, anything else as typed (the API names it). */
const numberOf = (typed: string): number =>
  /^\s*-?\d+\s*$/.test(typed) ? Number(typed) : (typed as unknown as number);

export function draftOf(form: PolicyForm): EscalationPolicyDraft {
  return {
    name: form.name,
    description: form.description.trim() === '' ? null : form.description,
    repeat_interval_minutes: numberOf(form.repeat),
    stages: form.stages.map((stage, index) => ({
      stage_order: index + 1,
      delay_minutes: index === 0 ? 0 : numberOf(stage.delay),
      targets: stage.targets.map((target) => {
        const [type, id] = target.choice === '' ? ['user', ''] : (target.choice.split(':') as [TargetType, string]);
        return { type: type as TargetType, id, channels: type === 'channel' ? [] : target.channels };
      }),
    })),
  };
}
