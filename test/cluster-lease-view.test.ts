/** The pure part of the lease membership (src/cluster/lease-view.ts): who is live at a given time. */
import test from 'ava';
import { heldByOwnLease, lapsedMembers, liveMembers, nextExpiry } from '../src/cluster/lease-view.js';

const leases = (entries: Record<string, number>) => new Map(Object.entries(entries));

/** [title, self, leases, at, live members]; `a` is this instance unless named. */
const liveCases: [string, string, Record<string, number>, number, string[]][] = [
  ['every lease running: all, sorted', 'a', { c: 20, a: 15, b: 12 }, 10, ['a', 'b', 'c']],
  ['a lease lapses at its expiry exactly', 'a', { a: 15, b: 12 }, 12, ['a']],
  ['one ms before its expiry it still runs', 'a', { a: 15, b: 12 }, 11.999, ['a', 'b']],
  ['own lease lapsed though others run: nobody (self-fencing)', 'a', { a: 12, b: 15 }, 12, []],
  ['own lease never written: nobody', 'x', { a: 15 }, 10, []],
];
for (const [title, self, expiries, at, expected] of liveCases) {
  test(`live members: ${title}`, (t) => {
    t.deepEqual(liveMembers(leases(expiries), self, at), expected);
  });
}

test('the next expiry is the earliest lease still running', (t) => {
  t.is(nextExpiry(leases({ a: 15, b: 12, c: 9 }), 10), 12);
  t.is(nextExpiry(leases({ a: 5 }), 10), undefined);
});

const lapseCases: [string, string[], string[], Record<string, number>, number, string[]][] = [
  ['a member whose last-seen lease passed lapsed', ['a', 'b', 'c'], ['a', 'b'], { c: 13 }, 13, ['c']],
  ['a member that left while its lease ran left gracefully', ['a', 'b', 'c'], ['a', 'c'], { b: 16 }, 6, []],
  ['nothing is counted while this instance is out itself', ['a', 'b', 'c'], [], { b: 5, c: 5 }, 13, []],
  ['this instance is never its own takeover', ['a', 'b'], ['b'], { a: 5 }, 13, []],
];
for (const [title, before, after, lastSeen, at, expected] of lapseCases) {
  test(`lapsed members: ${title}`, (t) => {
    t.deepEqual(lapsedMembers(before, after, leases(lastSeen), 'a', at), expected);
  });
}

test('while reading fails, the others are kept as long as the own lease runs, then all go at once', (t) => {
  const held = heldByOwnLease(leases({ self: 13, b: 10, c: 16 }), 'self');
  t.deepEqual(liveMembers(held, 'self', 12.999), ['b', 'c', 'self']);
  t.deepEqual(liveMembers(held, 'self', 13), [], 'c read as running to 16 goes with the own lease');
});
