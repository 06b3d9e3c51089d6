/**
 * Whether this instance should hold its lease: a member is in the cluster only while it can do its
 * work. Pure: the membership asks at every renewal round with what the health probes last saw
 * (member-health.ts), and renews, gives the lease up, rejoins or stays out as answered.
 *
 * A member that cannot reach the event log or its read store, or whose evaluator tick or
 * escalation work has been stuck, still renews happily if nobody asks: its share of the rules and
 * incidents would then wait for the whole outage (issue 39). Giving the lease up (deleting it, not
 * letting it lapse) hands the share to the others at their next reading.
 */

export type LeaseAction = 'renew' | 'release' | 'rejoin' | 'stay-out';

export interface LeaseDecision {
  action: LeaseAction;
  /** Why this instance cannot do its work (empty when it can). */
  faults: string[];
}

export interface MemberHealthFacts {
  now: number;
  /** Whether this instance holds its lease now (false once it gave it up). */
  holding: boolean;
  /** When the facts began to be collected: the age of a store never reached yet counts from here. */
  watchingSince: number;
  /** The last successful read of the event log (epoch ms), null: none yet. */
  logReadOkAt: number | null;
  /**
   * Appends refused without one succeeding since `since`, the latest at `lastAt` (null: none). A
   * refusal counts while appends keep being refused: out of the cluster a member makes none, so one
   * older than the bound no longer keeps it out (it rejoins, and finds out by trying).
   */
  appendsRefused: { since: number; lastAt: number } | null;
  /** The last successful read of the read store (epoch ms), null: none yet. */
  storeReadOkAt: number | null;
  /** The work loops: since when the oldest unit of work still running started (null: idle). */
  loops: readonly { name: string; busySince: number | null }[];
}

export interface HealthBounds {
  /** How long the log or the read store may be out of reach before the lease is given up. */
  unreachableMs: number;
  /** How long one unit of a loop's work (a tick, a reconcile) may run before the loop counts as stuck. */
  stuckLoopMs: number;
}

function faultsOf(facts: MemberHealthFacts, bounds: HealthBounds): string[] {
  const faults: string[] = [];
  const since = (at: number | null) => facts.now - (at ?? facts.watchingSince);
  const logAge = since(facts.logReadOkAt);
  if (logAge > bounds.unreachableMs) faults.push(`event log unreadable for ${logAge} ms`);
  const refused = facts.appendsRefused;
  if (
    refused !== null &&
    facts.now - refused.since > bounds.unreachableMs &&
    facts.now - refused.lastAt <= bounds.unreachableMs
  )
    faults.push(`event log refusing appends for ${facts.now - refused.since} ms`);
  const storeAge = since(facts.storeReadOkAt);
  if (storeAge > bounds.unreachableMs) faults.push(`read store unreadable for ${storeAge} ms`);
  for (const loop of facts.loops) {
    if (loop.busySince !== null && facts.now - loop.busySince > bounds.stuckLoopMs)
      faults.push(`${loop.name} stuck for ${facts.now - loop.busySince} ms`);
  }
  return faults;
}

export function decideLease(facts: MemberHealthFacts, bounds: HealthBounds): LeaseDecision {
  const faults = faultsOf(facts, bounds);
  const healthy = faults.length === 0;
  if (facts.holding) return { action: healthy ? 'renew' : 'release', faults };
  return { action: healthy ? 'rejoin' : 'stay-out', faults };
}

/** What a member without health probes does: hold the lease whenever it can. */
export const alwaysHealthy = (holding: boolean): LeaseDecision => ({
  action: holding ? 'renew' : 'rejoin',
  faults: [],
});
