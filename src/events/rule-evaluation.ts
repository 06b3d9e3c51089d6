import { z } from 'zod';
import { EVALUATION_OUTCOMES } from '../contract/vocabulary.js';

/**
 * A recorded evaluation of one rule, on `ruleEvaluations-<ruleId>` (the stream keeps 30 days or
 * 10,000 events, whichever is less). Not every evaluation is recorded: the first one, every one
 * that changes what the history or the rule's watch says, and one an hour otherwise
 * (src/process/evaluation-record.ts).
 *
 * `pending` (added after the first release; old events never carry it, so reading them is
 * unchanged): the condition holds but has not yet held for the rule's whole window.
 * `silenced` (added with maintenance windows, with `windowId`): a maintenance window covered the
 * rule, so nothing was opened; the pending clock runs on while the condition holds, so the
 * incident opens at the first evaluation after the window if the rule's window is then full.
 */
export { EVALUATION_OUTCOMES };

export const ruleEvaluationEvents = {
  RuleEvaluated: z.object({
    ruleId: z.uuid(),
    at: z.iso.datetime(),
    value: z.number().nullable(),
    conditionMet: z.boolean().nullable(),
    outcome: z.enum(EVALUATION_OUTCOMES),
    incidentId: z.uuid().nullable(),
    error: z.string().nullable(),
    /** The maintenance window that silenced the evaluation (outcome `silenced`); absent on older events. */
    windowId: z.uuid().nullable().optional(),
  }),
};

export type RuleEvaluatedData = z.infer<typeof ruleEvaluationEvents.RuleEvaluated>;
/** What the rule's read model keeps of its newest recorded evaluation (what decides whether the next one is recorded). */
export type RecordedEvaluation = Pick<
  RuleEvaluatedData,
  'at' | 'outcome' | 'conditionMet' | 'incidentId' | 'error' | 'windowId'
>;
export const ruleEvaluationStream = (ruleId: string) => `ruleEvaluations-${ruleId}`;
export const RULE_EVALUATION_RETENTION = { maxCount: 10_000, maxAgeSeconds: 30 * 24 * 3600 };

/**
 * What a rule's evaluations (and a manual resolve) say about it now. Folded from events by the
 * alertRules read model, so every evaluator instance, and one started after a crash, sees the same
 * pending clock; nothing of it lives in process memory.
 */
export interface RuleWatch {
  /** When the condition started holding without a break (the first `pending` evaluation); null when it does not hold. */
  pendingSince: string | null;
  /** false after a manual resolve until an evaluation finds the condition cleared: no re-trigger before. */
  rearmed: boolean;
  /** `failing` while the latest evaluation is an error or had no data. */
  health: 'ok' | 'failing';
  lastError: string | null;
  /** The first error of the current run of errors. */
  failingSince: string | null;
}

export const initialRuleWatch = (): RuleWatch => ({
  pendingSince: null,
  rearmed: true,
  health: 'ok',
  lastError: null,
  failingSince: null,
});

export function watchAfterEvaluation(
  watch: RuleWatch,
  evaluation: Pick<RuleEvaluatedData, 'at' | 'outcome' | 'conditionMet' | 'error'> & { incidentId?: string | null },
): RuleWatch {
  const rearmed = evaluation.conditionMet === false ? true : watch.rearmed;
  if (evaluation.outcome === 'error' || evaluation.outcome === 'no_data') {
    // An error (or no value) neither resets nor advances the pending clock (see README, The evaluator).
    return {
      ...watch,
      rearmed,
      health: 'failing',
      lastError: evaluation.error ?? 'evaluation failed',
      failingSince: watch.failingSince ?? evaluation.at,
    };
  }
  // Silenced while breaching with no incident open: the clock runs as it would have while pending.
  const running =
    evaluation.outcome === 'pending' ||
    (evaluation.outcome === 'silenced' && evaluation.conditionMet === true && (evaluation.incidentId ?? null) === null);
  const pendingSince = running ? (watch.pendingSince ?? evaluation.at) : null;
  return { pendingSince, rearmed, health: 'ok', lastError: null, failingSince: null };
}

/** Whether two watch states differ (an evaluation that changes the watch must be recorded and projected). */
export const watchChanged = (a: RuleWatch, b: RuleWatch) =>
  (Object.keys(a) as (keyof RuleWatch)[]).some((key) => a[key] !== b[key]);

/** A manual resolve disarms the rule; an edit of what the rule watches, or disabling it, restarts the pending clock. */
export const watchAfterManualResolve = (watch: RuleWatch): RuleWatch => ({
  ...watch,
  rearmed: false,
  pendingSince: null,
});
export const watchAfterRuleChange = (watch: RuleWatch): RuleWatch => ({ ...watch, pendingSince: null });
