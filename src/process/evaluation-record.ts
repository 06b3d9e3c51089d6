/**
 * Which evaluations become `RuleEvaluated` events: the history's recording rule, pure.
 *
 * Recording every evaluation made the log grow by one event per rule per tick: at 100,000 rules
 * and one tick a minute, 144 million events (about 100 GiB) a day, and one append plus one
 * projection step per rule per tick was most of a tick's time. An evaluation is recorded when
 * - its outcome, condition, incident or error differs from the last recorded one; a rule with none
 *   recorded since it was created (or since what it watches changed) compares with a quiet one
 *   (`ok`, condition not met, no incident, no error) at that instant, which is what its read-model
 *   watch says then. Recording every rule's first evaluation made the first tick after 100,000
 *   rules were created (or a rebuild) 100,000 appends (9–14 s); a restart needs none of the quiet
 *   ones: their watch is the initial one either way;
 * - it changes the rule's watch (the pending clock starts or resets, the rule re-arms), so the
 *   read model that folds the watch from these events stays what every evaluation would make it;
 * - or the rule's hour has turned since the last recorded one: one entry an hour while nothing
 *   changes, with the reading of that moment. Each rule's hour starts at its own offset (a hash of
 *   its id), so 100,000 quiet rules record about 1/60 of themselves per minute, not all at once.
 * The evaluations in between are the same as the recorded one before them except for the value.
 */
import {
  watchAfterEvaluation,
  watchChanged,
  type RecordedEvaluation,
  type RuleWatch,
} from '../events/rule-evaluation.js';

export const HISTORY_HEARTBEAT_MS = 60 * 60_000;

/** The rule's offset within the hour, from its id (FNV-1a: stable across instances and restarts). */
export function heartbeatOffsetMs(ruleId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < ruleId.length; i++) {
    hash ^= ruleId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % HISTORY_HEARTBEAT_MS;
}

const hourOf = (at: string, offsetMs: number) => Math.floor((Date.parse(at) - offsetMs) / HISTORY_HEARTBEAT_MS);

/**
 * The instant (ms) the rule's hour turns after `at`: from then on an evaluation that changes
 * nothing is recorded again (`at`: the newest recorded evaluation's, or the rule's `since`).
 */
export function nextHourTurn(ruleId: string, at: string): number {
  const offset = heartbeatOffsetMs(ruleId);
  return (hourOf(at, offset) + 1) * HISTORY_HEARTBEAT_MS + offset;
}

/** What a rule with nothing recorded reads as: quiet since it started watching. */
const QUIET: Omit<RecordedEvaluation, 'at'> = {
  outcome: 'ok',
  conditionMet: false,
  incidentId: null,
  error: null,
  windowId: null,
};

export interface RecordingInput {
  ruleId: string;
  /**
   * When the rule started watching what it watches now (its creation or last edit): with nothing
   * recorded, its first quiet evaluation is recorded when its hour turns after this instant.
   */
  since: string;
  /** The newest recorded evaluation, or null: none since the rule was created or last changed what it watches. */
  last: RecordedEvaluation | null;
  /** The rule's watch before this evaluation. */
  watch: RuleWatch;
  evaluation: RecordedEvaluation;
}

export function shouldRecordEvaluation({ ruleId, since, last: recorded, watch, evaluation }: RecordingInput): boolean {
  const last = recorded ?? QUIET;
  if (
    last.outcome !== evaluation.outcome ||
    last.conditionMet !== evaluation.conditionMet ||
    last.incidentId !== evaluation.incidentId ||
    last.error !== evaluation.error ||
    (last.windowId ?? null) !== (evaluation.windowId ?? null)
  )
    return true;
  if (watchChanged(watch, watchAfterEvaluation(watch, evaluation))) return true;
  const offset = heartbeatOffsetMs(ruleId);
  return hourOf(evaluation.at, offset) !== hourOf(recorded?.at ?? since, offset);
}
