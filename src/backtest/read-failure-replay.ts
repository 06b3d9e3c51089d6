/**
 * When a rule's read-failure incident (source `rule_error`) would have opened and closed over a
 * backtest's range, pure. An instant without history is what a failed read is to the live
 * evaluator (src/backtest/replay.ts); with `on_error: alerting` the incident opens at the first
 * instant at least `error_for_minutes` into an unbroken run of them, as readFailureVerdict decides
 * live, and closes at the next instant with a reading.
 */
import { readFailureVerdict, type ReadFailureSettings } from '../process/read-failure-decision.js';

export interface WouldBeReadFailureIncident {
  startedAt: number;
  /** null: still open at the end of the range. */
  endedAt: number | null;
}

export function replayReadFailures(
  settings: ReadFailureSettings,
  instants: readonly number[],
  readings: readonly (number | null)[],
): WouldBeReadFailureIncident[] {
  const incidents: WouldBeReadFailureIncident[] = [];
  let failingSince: string | null = null;
  let open: WouldBeReadFailureIncident | null = null;
  for (let i = 0; i < instants.length; i++) {
    const at = instants[i]!;
    if ((readings[i] ?? null) !== null) {
      if (open) open.endedAt = at;
      open = null;
      failingSince = null;
      continue;
    }
    if (!open && readFailureVerdict(settings, 'error', failingSince, new Date(at)) === 'alerting') {
      open = { startedAt: at, endedAt: null };
      incidents.push(open);
    }
    failingSince ??= new Date(at).toISOString();
  }
  return incidents;
}
