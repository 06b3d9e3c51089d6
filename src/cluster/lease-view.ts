/**
 * What one instance knows of the cluster's leases, and the member list that follows from it at a
 * given time. Pure: the MongoDB adapter feeds it what it read and asks it what is live now.
 *
 * Expiry is evaluated at the time of asking, not only when the leases were last read: a member
 * whose lease lapses between two readings drops out at its `expiresAt` exactly, so a takeover never
 * waits for the next renewal round. Joining is seen at the next reading (within one renewal period).
 */

/** member id → the lease expiry (epoch ms) last read for it. */
export type LeaseExpiries = ReadonlyMap<string, number>;

/**
 * The live members at `at`, sorted: those whose lease runs past `at`. Empty when this instance's
 * own lease has lapsed (self-fencing: the others already count it out, so it must not keep working).
 */
export function liveMembers(expiries: LeaseExpiries, self: string, at: number): string[] {
  const own = expiries.get(self);
  if (own === undefined || own <= at) return [];
  return [...expiries]
    .filter(([, expiresAt]) => expiresAt > at)
    .map(([member]) => member)
    .sort();
}

/**
 * The view of an instance that could not read the leases in its last round: it cannot tell a member
 * that stopped renewing from one whose renewals it failed to read, so it takes none of their work
 * over and keeps every member as long as its own lease runs; then it drops them all (fences itself).
 * Otherwise an instance cut off from MongoDB would take over the whole cluster for its last seconds.
 */
export function heldByOwnLease(expiries: LeaseExpiries, self: string): LeaseExpiries {
  const own = expiries.get(self);
  if (own === undefined) return expiries;
  return new Map([...expiries].map(([member, expiresAt]) => [member, Math.max(expiresAt, own)]));
}

/** The next moment after `at` when a lease in `expiries` lapses (the member list may change then). */
export function nextExpiry(expiries: LeaseExpiries, at: number): number | undefined {
  let next: number | undefined;
  for (const expiresAt of expiries.values()) {
    if (expiresAt > at && (next === undefined || expiresAt < next)) next = expiresAt;
  }
  return next;
}

/**
 * The members that left between `before` and `after` because their lease lapsed, judged by the
 * expiry last read for them (`lastSeen`). A member that left gracefully deleted its lease while it
 * still ran: its last-seen expiry is still ahead, since the renewal period is under half the lease
 * (config.ts), so every member is read at least once more before its previous expiry passes.
 * Nothing is counted while this instance is itself out of the cluster (`after` empty).
 */
export function lapsedMembers(
  before: readonly string[],
  after: readonly string[],
  lastSeen: LeaseExpiries,
  self: string,
  at: number,
): string[] {
  if (after.length === 0) return [];
  const remaining = new Set(after);
  return before.filter((member) => member !== self && !remaining.has(member) && (lastSeen.get(member) ?? at) <= at);
}

export function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((member, index) => member === b[index]);
}
