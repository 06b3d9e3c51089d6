/**
 * Whether a maintenance window holds an incident's escalation, pure: given the windows of the
 * incident's tenant that can still be active (their matcher and timing), the incident's rule
 * fields, whether it is held now and whether a stage remains, at an instant.
 *
 *   not held, a matching window active, a stage remaining → hold (the stage waits)
 *   held, no matching window active any more             → resume (the held stage fires if due)
 *   otherwise                                            → nothing; look again at `lookAgainAt`,
 *                                                          the next start or end of a matching window
 *
 * The hold is an event on the incident's stream (EscalationHeld / EscalationResumed), so a
 * restart, or another cluster member, reads it from the log: nothing of it lives in memory.
 */
import type { WindowMatcher } from '../../events/maintenance-window.js';
import {
  isWindowActive,
  nextBoundary,
  windowMatchesRule,
  type MatchedRule,
  type TimedWindow,
} from '../../events/maintenance-window-timing.js';

export interface HoldingWindow extends TimedWindow {
  id: string;
  matcher: WindowMatcher;
}

export interface HoldInput {
  incident: MatchedRule;
  /** The window holding the escalation now, or null. */
  heldBy: string | null;
  /** Whether a stage is still to fire (an escalation that has run its course is never held). */
  stageRemaining: boolean;
  windows: readonly HoldingWindow[];
  now: number;
}

export type HoldDecision =
  | { action: 'hold'; windowId: string }
  | { action: 'resume'; windowId: string }
  | { action: 'none'; lookAgainAt: number | null };

export function decideHold(input: HoldInput): HoldDecision {
  const matching = input.windows.filter((window) => windowMatchesRule(window.matcher, input.incident));
  const active = matching.filter((window) => isWindowActive(window, input.now));
  if (input.heldBy !== null && active.length === 0) return { action: 'resume', windowId: input.heldBy };
  if (input.heldBy === null && active.length > 0 && input.stageRemaining)
    return { action: 'hold', windowId: active[0]!.id };
  const boundaries = matching
    .map((window) => nextBoundary(window, input.now))
    .filter((at): at is number => at !== null);
  return { action: 'none', lookAgainAt: boundaries.length === 0 ? null : Math.min(...boundaries) };
}
