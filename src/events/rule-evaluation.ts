import { z } from 'zod';

/**
 * One evaluation of one rule, on `ruleEvaluations-<ruleId>` (high volume: the stream keeps
 * 30 days or 10,000 events, whichever is less).
 */
export const EVALUATION_OUTCOMES = ['triggered', 'resolved', 'unchanged', 'ok', 'error'] as const;

export const ruleEvaluationEvents = {
  RuleEvaluated: z.object({
    ruleId: z.uuid(),
    at: z.iso.datetime(),
    value: z.number().nullable(),
    conditionMet: z.boolean().nullable(),
    outcome: z.enum(EVALUATION_OUTCOMES),
    incidentId: z.uuid().nullable(),
    error: z.string().nullable(),
  }),
};

export type RuleEvaluatedData = z.infer<typeof ruleEvaluationEvents.RuleEvaluated>;
export const ruleEvaluationStream = (ruleId: string) => `ruleEvaluations-${ruleId}`;
export const RULE_EVALUATION_RETENTION = { maxCount: 10_000, maxAgeSeconds: 30 * 24 * 3600 };
