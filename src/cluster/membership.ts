/**
 * Cluster membership: which platform instances are alive now, and which of them owns a piece of
 * work. Work is split by rendezvous (highest-random-weight) hashing of a stable key over the live
 * members, so when a member joins or leaves only the keys it gains or loses move; every member
 * computes the same owner from the same member list without talking to the others.
 *
 * Ownership is advisory: during a change two members may briefly both believe they own a key (one
 * still sees the old list). The appends that matter expect a revision (incident ids are fixed per
 * rule and ordinal, stages expect the incident's revision, sync runs expect the job's), so a
 * doubled owner costs a doubled read, never a doubled page.
 */
import { createHash } from 'node:crypto';

/**
 * This instance's hold on the cluster from one moment on: work begun under a tenure may go on (append,
 * send) only while it is unbroken. A lease that lapsed (a stall longer than the lease, MongoDB out of
 * reach) or was given up breaks it for good, even once the instance has rejoined: what the work read
 * before may have been done by another member since, so it is read again under the new tenure.
 */
export interface Tenure {
  unbroken(): boolean;
}

export interface Membership {
  /** This instance's name (DATA_DIR/instance-id). */
  readonly self: string;
  /** The live members now, sorted; empty while this instance's own lease has lapsed. */
  members(): readonly string[];
  /** Whether this instance owns `key` among the live members now. */
  owns(key: string): boolean;
  /** Called with the new member list whenever it changes (after the change is in effect). */
  onChange(listener: (members: readonly string[]) => void): () => void;
  /** The tenure this instance holds now (broken from the start while it holds no lease). */
  tenure(): Tenure;
  start(): Promise<void>;
  /** Leaves the cluster (a graceful stop hands the work over at once, not after the lease lapses). */
  stop(): Promise<void>;
}

/** The weight of (member, key): the member with the highest weight owns the key. */
function weight(member: string, key: string): bigint {
  return createHash('sha256').update(member).update('\u0000').update(key).digest().readBigUInt64BE(0);
}

/** The owner of `key` among `members` (null when there are none). */
export function ownerOf(key: string, members: readonly string[]): string | null {
  let best: string | null = null;
  let bestWeight = -1n;
  for (const member of members) {
    const w = weight(member, key);
    if (w > bestWeight || (w === bestWeight && best !== null && member < best)) {
      best = member;
      bestWeight = w;
    }
  }
  return best;
}

const ALWAYS: Tenure = { unbroken: () => true };

/** One instance alone (the embedded stores: one instance per DATA_DIR): it owns everything. */
export function soloMembership(self: string): Membership {
  const members = [self];
  return {
    self,
    members: () => members,
    owns: () => true,
    onChange: () => () => {},
    tenure: () => ALWAYS,
    async start() {},
    async stop() {},
  };
}
