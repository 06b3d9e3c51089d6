/**
 * The escalation policy answer. Written once here: queries/escalation-policies.ts and the command
 * routes are typed from it, src/openapi/schedules.ts documents it, the console imports its type.
 */
import { z } from 'zod';
import { instant, optionalText, resourceId } from './answer-pieces.js';
import { DELIVERY_CHANNELS, TARGET_TYPES } from './vocabulary.js';

export const escalationPolicySchema = z.object({
  id: resourceId,
  name: z.string(),
  description: optionalText,
  stages: z.array(
    z.object({
      stage_order: z.number().int(),
      delay_minutes: z.number().int(),
      targets: z.array(
        z.object({ type: z.enum(TARGET_TYPES), id: resourceId, channels: z.array(z.enum(DELIVERY_CHANNELS)) }),
      ),
    }),
  ),
  repeat_interval_minutes: z.number().int(),
  created_at: instant,
  updated_at: instant,
});
export type EscalationPolicy = z.infer<typeof escalationPolicySchema>;
export type PolicyStage = EscalationPolicy['stages'][number];
export type PolicyTarget = PolicyStage['targets'][number];
