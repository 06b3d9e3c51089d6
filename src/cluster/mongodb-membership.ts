/**
 * The MongoDB adapter of the membership port: each instance holds a lease, one document per member
 * in `cluster_members` ({_id: self, renewedAt, expiresAt, startedAt, pid, host}), renewed every
 * `renewEveryMs` by an upsert that moves `expiresAt` to `now + leaseMs`. After each renewal the
 * instance reads the members whose lease runs past now; in between, leases lapse at their
 * `expiresAt` exactly (lease-view.ts), so a member that stops renewing is counted out `leaseMs`
 * after its last renewal, by the others and by itself alike.
 *
 * Clocks: every instance compares `expiresAt` values written with the other instances' clocks to its
 * own clock. They must agree within a few seconds (NTP); an instance whose clock runs behind keeps a
 * crashed member for longer, one whose clock runs ahead drops live members early (its own lease
 * included, so it fences itself early, which is safe). The expected-revision appends remain the
 * safety net for the moments two instances both believe they own a key.
 *
 * A member renews only while it can do its work (`assess`, lease-decision.ts): otherwise it gives
 * the lease up (deletes it) and rejoins once it can. Each lease taken after holding none starts a
 * new tenure (membership.ts), so work begun under an earlier one stays fenced.
 */
import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import type { ClusterMetrics } from './cluster-metrics.js';
import {
  heldByOwnLease,
  lapsedMembers,
  liveMembers,
  nextExpiry,
  sameMembers,
  type LeaseExpiries,
} from './lease-view.js';
import { failureStreak } from './failure-streak.js';
import { alwaysHealthy, type LeaseDecision } from './lease-decision.js';
import { leaseDocuments } from './lease-documents.js';
import { ownerOf, type Membership } from './membership.js';

export { MEMBERS_COLLECTION } from './lease-documents.js';

/** A failing renewal is logged once, then at most once per this period (with how many were not). */
const FAILURE_LOG_PERIOD_MS = 60_000;

export interface MembershipTimers {
  /** The callback's result is ignored (tests in virtual time may await it). */
  setTimeout(callback: () => unknown, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface MongoMembershipOptions {
  /** The database holding `cluster_members`; the caller owns (and closes) its client. */
  db: Db;
  /** This instance's id (DATA_DIR/instance-id): stable across restarts, unique in the cluster. */
  self: string;
  now: () => Date;
  /** How long a renewal keeps a member alive (default 10 s). */
  leaseMs?: number;
  /** Renewal period (default 3 s); under half the lease, so one failed renewal loses nothing. */
  renewEveryMs?: number;
  timers?: MembershipTimers;
  logger: Logger;
  metrics: ClusterMetrics;
  /**
   * Asked at every round whether to renew, give the lease up, rejoin or stay out (member-health.ts);
   * default: hold the lease whenever MongoDB takes the renewal.
   */
  assess?: (holding: boolean) => LeaseDecision;
}

const realTimers: MembershipTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export function createMongoMembership(options: MongoMembershipOptions): Membership {
  const { self, now, logger, metrics } = options;
  const leaseMs = options.leaseMs ?? 10_000;
  const renewEveryMs = options.renewEveryMs ?? 3_000;
  const timers = options.timers ?? realTimers;
  const leases = leaseDocuments(options.db, self);
  const listeners = new Set<(members: readonly string[]) => void>();
  const log = logger.child({ component: 'cluster-membership', member: self });

  /** The leases as last read, and the view the member list is taken from (held while reading fails). */
  let expiries: LeaseExpiries = new Map();
  let view: LeaseExpiries = expiries;
  let announced: readonly string[] = [];
  let running = false;
  let startedAt = now();
  let renewalTimer: unknown;
  let expiryTimer: unknown;
  let inFlight: Promise<void> = Promise.resolve();
  const failures = failureStreak(FAILURE_LOG_PERIOD_MS);
  const assess = options.assess ?? alwaysHealthy;
  /** Given up (assess said release) and not yet rejoined; `deleted` once its document is gone. */
  const out = { released: false, deleted: false };
  /** Bumped whenever this instance takes a lease after holding none: work begun before is void. */
  let tenure = 0;

  /** Publishes the list that holds now, if it changed; then waits for the next lease to lapse. */
  function refresh(previous: LeaseExpiries): void {
    const at = now().getTime();
    const next = running ? liveMembers(view, self, at) : [];
    if (!sameMembers(announced, next)) {
      const lapsed = lapsedMembers(announced, next, previous, self, at);
      if (lapsed.length > 0) {
        metrics.takeovers.inc(lapsed.length);
        log.warn({ lapsed, members: next }, 'cluster members lapsed without leaving: taking over their work');
      }
      if (running && next.length === 0)
        log.warn({ leaseMs }, 'own lease lapsed: this instance owns no work until it renews');
      else log.info({ members: next }, 'cluster membership changed');
      announced = next;
      metrics.members.set(next.length);
      metrics.membershipChanges.inc();
      for (const listener of listeners) {
        try {
          listener(next);
        } catch (error) {
          log.error({ err: error }, 'a membership listener failed');
        }
      }
    }
    scheduleExpiry(at);
  }

  function scheduleExpiry(at: number): void {
    if (expiryTimer !== undefined) timers.clearTimeout(expiryTimer);
    expiryTimer = undefined;
    const lapseAt = running ? nextExpiry(view, at) : undefined;
    if (lapseAt !== undefined) expiryTimer = timers.setTimeout(() => refresh(expiries), lapseAt - at);
  }

  function renewalFailed(error: unknown, at: number): void {
    metrics.leaseRenewals.inc({ outcome: 'failed' });
    const logged = failures.failed(at);
    if (logged) log.warn({ err: error, ...logged }, 'cluster lease renewal failed');
  }

  function holdView(): void {
    if (!running) return;
    view = heldByOwnLease(expiries, self);
    refresh(expiries);
  }

  /** Out of the cluster at once (owns nothing from now on); the others see it gone at their next reading. */
  async function release(faults: string[]): Promise<void> {
    if (!out.released) {
      out.released = true;
      out.deleted = false;
      metrics.leaseReleases.inc();
      log.warn({ faults }, 'giving up the lease: this instance cannot do its work; it rejoins once it can');
      const previous = expiries;
      expiries = view = new Map();
      refresh(previous);
    }
    if (out.deleted) return;
    try {
      await leases.remove();
      out.deleted = true;
    } catch (error) {
      log.warn({ err: error }, 'could not delete the given-up lease; the others take over when it lapses');
    }
  }

  /** One renewal and reading; never throws (it runs from a timer). */
  async function round(): Promise<void> {
    const decision = assess(!out.released);
    if (decision.action === 'release') return release(decision.faults);
    if (decision.action === 'stay-out') return;
    if (decision.action === 'rejoin') log.info('this instance can do its work again: rejoining the cluster');
    const sentAt = now();
    const expiresAt = new Date(sentAt.getTime() + leaseMs);
    try {
      await leases.renew(sentAt, expiresAt, startedAt);
    } catch (error) {
      renewalFailed(error, sentAt.getTime());
      holdView();
      return;
    }
    metrics.leaseRenewals.inc({ outcome: 'ok' });
    const held = out.released ? undefined : expiries.get(self);
    out.released = false;
    if (held === undefined || held <= sentAt.getTime()) {
      // A lease taken after holding none (first start, a lapse, given up): a new tenure. The lapse
      // is told first, so the listeners list their work again when the new member list comes.
      tenure++;
      refresh(expiries);
    }
    // What this instance wrote is what it knows of itself, even if the reading fails or comes late.
    expiries = new Map(expiries).set(self, expiresAt.getTime());
    const streak = failures.ended();
    if (streak > 0) log.info({ failures: streak }, 'cluster lease renewed again');
    try {
      await leases.ensureTtlIndex();
    } catch (error) {
      log.warn(
        { err: error },
        'could not create the TTL index of cluster_members (leases still work; gone members stay stored)',
      );
    }
    try {
      const live = await leases.live(now());
      if (!running) return;
      const previous = expiries;
      expiries = live.set(self, expiresAt.getTime());
      view = expiries;
      refresh(previous);
    } catch (error) {
      log.warn({ err: error }, 'could not read the cluster members (keeping the last reading)');
      holdView();
    }
  }

  function scheduleRound(delayMs: number): void {
    renewalTimer = timers.setTimeout(() => {
      renewalTimer = undefined;
      if (!running) return undefined;
      const started = now().getTime();
      inFlight = round().then(() => {
        if (running) scheduleRound(Math.max(0, started + renewEveryMs - now().getTime()));
      });
      return inFlight;
    }, delayMs);
  }

  /** owns() runs once per rule per tick: the list is recomputed only when a lease may have lapsed. */
  let cache = { of: view, from: 0, until: -1, list: [] as readonly string[] };
  function current(): readonly string[] {
    if (!running) return [];
    const at = now().getTime();
    if (cache.of !== view || at < cache.from || at >= cache.until) {
      cache = { of: view, from: at, until: nextExpiry(view, at) ?? Infinity, list: liveMembers(view, self, at) };
    }
    return cache.list;
  }

  return {
    self,
    members: current,
    owns: (key) => ownerOf(key, current()) === self,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    tenure() {
      const taken = tenure;
      return {
        unbroken: () =>
          running && !out.released && tenure === taken && (expiries.get(self) ?? -Infinity) > now().getTime(),
      };
    },
    async start() {
      if (running) return;
      running = true;
      startedAt = now();
      const started = startedAt.getTime();
      inFlight = round();
      await inFlight;
      if (running) scheduleRound(Math.max(0, started + renewEveryMs - now().getTime()));
    },
    async stop() {
      if (!running) return;
      running = false;
      if (renewalTimer !== undefined) timers.clearTimeout(renewalTimer);
      renewalTimer = undefined;
      // A renewal still in flight would otherwise land after the delete and bring the lease back.
      await inFlight;
      try {
        await leases.remove();
      } catch (error) {
        log.warn({ err: error }, 'could not delete the own lease; the others take over when it lapses');
      }
      refresh(expiries);
      expiries = view = new Map();
    },
  };
}
