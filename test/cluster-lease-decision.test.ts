/**
 * The lease decision (src/cluster/lease-decision.ts, issue 39): a member holds its lease only while
 * it can do its work. Given what the health probes last saw, when: the renewal round asks, then:
 * renew, release, rejoin or stay out. Bounds: stores unreachable 5 s, a loop stuck 120 s.
 */
import test from 'ava';
import { decideLease, type LeaseAction, type MemberHealthFacts } from '../src/cluster/lease-decision.js';

const NOW = 1_000_000;
const bounds = { unreachableMs: 5000, stuckLoopMs: 120_000 };
const healthy: MemberHealthFacts = {
  now: NOW,
  holding: true,
  watchingSince: NOW - 60_000,
  logReadOkAt: NOW - 1000,
  appendsRefused: null,
  storeReadOkAt: NOW - 1000,
  loops: [
    { name: 'evaluator tick', busySince: null },
    { name: 'escalation', busySince: null },
  ],
};
const loops = (evaluator: number | null, escalation: number | null) => [
  { name: 'evaluator tick', busySince: evaluator },
  { name: 'escalation', busySince: escalation },
];

const cases: [string, Partial<MemberHealthFacts>, LeaseAction, RegExp[]][] = [
  ['everything answers: renew', {}, 'renew', []],
  ['the log last answered 5 s ago (the bound itself): renew', { logReadOkAt: NOW - 5000 }, 'renew', []],
  ['the log last answered 5.001 s ago: release', { logReadOkAt: NOW - 5001 }, 'release', [/event log unreadable/]],
  [
    'the log never answered since watching began 6 s ago: release',
    { logReadOkAt: null, watchingSince: NOW - 6000 },
    'release',
    [/event log unreadable for 6000 ms/],
  ],
  [
    'the log never answered, watching began 2 s ago (start-up): renew',
    { logReadOkAt: null, storeReadOkAt: null, watchingSince: NOW - 2000 },
    'renew',
    [],
  ],
  [
    'reads work but appends refused for 6 s, the last 0.2 s ago: release',
    { appendsRefused: { since: NOW - 6000, lastAt: NOW - 200 } },
    'release',
    [/refusing appends for 6000 ms/],
  ],
  [
    'appends refused for 1 s (a blip): renew',
    { appendsRefused: { since: NOW - 1000, lastAt: NOW - 100 } },
    'renew',
    [],
  ],
  [
    'given up after refused appends, none tried for 6 s (it makes none while out), reads work: rejoin and try',
    { holding: false, appendsRefused: { since: NOW - 20_000, lastAt: NOW - 6000 } },
    'rejoin',
    [],
  ],
  [
    'given up, an append refused 1 s ago (an API write on it): stay out',
    { holding: false, appendsRefused: { since: NOW - 20_000, lastAt: NOW - 1000 } },
    'stay-out',
    [/refusing appends/],
  ],
  [
    'the read store unreachable for 30 s: release',
    { storeReadOkAt: NOW - 30_000 },
    'release',
    [/read store unreadable/],
  ],
  [
    'the log and the store both out: release, both named',
    { logReadOkAt: NOW - 9000, storeReadOkAt: NOW - 9000 },
    'release',
    [/event log/, /read store/],
  ],
  ['a tick running for 119 s: renew', { loops: loops(NOW - 119_000, null) }, 'renew', []],
  [
    'a tick running for 121 s: release',
    { loops: loops(NOW - 121_000, null) },
    'release',
    [/evaluator tick stuck for 121000 ms/],
  ],
  [
    'a reconcile running for 10 min: release',
    { loops: loops(null, NOW - 600_000) },
    'release',
    [/escalation stuck for 600000 ms/],
  ],
  ['given up, now healthy: rejoin', { holding: false }, 'rejoin', []],
  [
    'given up, the log still out: stay out',
    { holding: false, logReadOkAt: NOW - 20_000 },
    'stay-out',
    [/event log unreadable/],
  ],
  ['given up, the log back (answered 0.5 s ago): rejoin', { holding: false, logReadOkAt: NOW - 500 }, 'rejoin', []],
  [
    'given up, the stuck tick still running: stay out',
    { holding: false, loops: loops(NOW - 200_000, null) },
    'stay-out',
    [/evaluator tick stuck/],
  ],
];

for (const [name, given, action, faults] of cases) {
  test(`lease decision: ${name}`, (t) => {
    const decision = decideLease({ ...healthy, ...given }, bounds);
    t.is(decision.action, action);
    t.is(decision.faults.length, faults.length, decision.faults.join('; '));
    for (const fault of faults)
      t.true(
        decision.faults.some((f) => fault.test(f)),
        `${fault} in ${decision.faults}`,
      );
  });
}
