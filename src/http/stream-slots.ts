/**
 * How many server-sent event streams of one kind are open at once: per person (a few console tabs
 * each; one person's runaway script cannot take the organisation's places) and per tenant (an
 * organisation's people together; one tenant cannot take the sockets and memory every other tenant
 * needs). A person is the token's user id: a person's own token and a client's token each carry
 * one. Taking a slot beyond either cap is a 429 with Retry-After whose detail and `cap` member name
 * the cap; a slot is given back when its stream closes. The decision is `decideStreamSlot`, pure.
 */
import { HttpProblem } from './problem.js';

export interface StreamCaps {
  perPerson: number;
  perTenant: number;
}

/** The streams open now for the asking person and for the person's tenant. */
export interface OpenStreams {
  person: number;
  tenant: number;
}

export type SlotDecision = { take: true } | { take: false; cap: 'per_user' | 'per_tenant' };

/**
 * The person's cap is judged first: a person at it hears about their own tabs (something they can
 * close), even when the tenant is full as well.
 */
export function decideStreamSlot(open: OpenStreams, caps: StreamCaps): SlotDecision {
  if (open.person >= caps.perPerson) return { take: false, cap: 'per_user' };
  if (open.tenant >= caps.perTenant) return { take: false, cap: 'per_tenant' };
  return { take: true };
}

export interface StreamSlotOptions {
  caps: StreamCaps;
  /** The stream in a refusal's words: "incident", "sync". */
  streamName: string;
  /** The variables that set the caps, named in a refusal. */
  variables: { perPerson: string; perTenant: string };
  retryAfterSeconds: number;
}

export interface StreamSlots {
  /** Takes a slot for the caller (or throws the 429); the returned function gives it back, once. */
  take(caller: { tenantId: string; userId: string }): () => void;
  /** Streams open now: the tenant's, or one person's of the tenant. */
  inUse(tenantId: string, userId?: string): number;
}

export function createStreamSlots(options: StreamSlotOptions): StreamSlots {
  const { caps, streamName, variables } = options;
  const byTenant = new Map<string, number>();
  const byPerson = new Map<string, number>();
  const personKey = (tenantId: string, userId: string) => `${tenantId}/${userId}`;
  // A key with nothing open is forgotten, so the maps hold only callers with streams open.
  const add = (counts: Map<string, number>, key: string, by: number) => {
    const next = (counts.get(key) ?? 0) + by;
    if (next > 0) counts.set(key, next);
    else counts.delete(key);
  };
  const refusal = (cap: 'per_user' | 'per_tenant') =>
    new HttpProblem(
      429,
      'Too Many Requests',
      cap === 'per_user'
        ? `at most ${caps.perPerson} ${streamName} streams per person are open at once (${variables.perPerson}); close another console tab or window first`
        : `at most ${caps.perTenant} ${streamName} streams per tenant are open at once, all its people together (${variables.perTenant}); try again later`,
      undefined,
      { cap, limit: cap === 'per_user' ? caps.perPerson : caps.perTenant },
      { 'Retry-After': String(Math.max(1, Math.ceil(options.retryAfterSeconds))) },
    );
  return {
    take({ tenantId, userId }) {
      const person = personKey(tenantId, userId);
      const decision = decideStreamSlot(
        { person: byPerson.get(person) ?? 0, tenant: byTenant.get(tenantId) ?? 0 },
        caps,
      );
      if (!decision.take) throw refusal(decision.cap);
      add(byPerson, person, 1);
      add(byTenant, tenantId, 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        add(byPerson, person, -1);
        add(byTenant, tenantId, -1);
      };
    },
    inUse: (tenantId, userId) =>
      (userId === undefined ? byTenant.get(tenantId) : byPerson.get(personKey(tenantId, userId))) ?? 0,
  };
}
