/** The escalation timing rules (SPEC.md, Escalation timing) as a table over the pure nextDueStage. */
import test from 'ava';
import { nextDueStage, type StageSnapshot } from '../src/events/escalation.js';

const T0 = Date.parse('2026-05-01T10:00:00Z');
const min = (m: number) => T0 + m * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const stages = (...delays: number[]): StageSnapshot[] =>
  delays.map((delayMinutes, i) => ({ stageOrder: i + 1, delayMinutes, targets: [] }));

const cases: [
  string,
  { delays: number[]; repeat: number },
  { stageOrder: number; cycle: number; firedAt: number } | null,
  { stageOrder: number; cycle: number; dueAt: number } | null,
][] = [
  ['stage 1 is due at the start', { delays: [0, 15], repeat: 0 }, null, { stageOrder: 1, cycle: 0, dueAt: T0 }],
  [
    'stage 2 is due its delay after stage 1 fired',
    { delays: [0, 15], repeat: 0 },
    { stageOrder: 1, cycle: 0, firedAt: T0 },
    { stageOrder: 2, cycle: 0, dueAt: min(15) },
  ],
  [
    'a late stage 1 pushes stage 2 by as much',
    { delays: [0, 15], repeat: 0 },
    { stageOrder: 1, cycle: 0, firedAt: min(3) },
    { stageOrder: 2, cycle: 0, dueAt: min(18) },
  ],
  [
    'after the last stage without repeat nothing is due',
    { delays: [0, 15], repeat: 0 },
    { stageOrder: 2, cycle: 0, firedAt: min(15) },
    null,
  ],
  [
    'after the last stage with repeat, stage 1 of the next cycle',
    { delays: [0, 15], repeat: 30 },
    { stageOrder: 2, cycle: 0, firedAt: min(15) },
    { stageOrder: 1, cycle: 1, dueAt: min(45) },
  ],
  [
    'cycles go on',
    { delays: [0, 15], repeat: 30 },
    { stageOrder: 2, cycle: 4, firedAt: min(300) },
    { stageOrder: 1, cycle: 5, dueAt: min(330) },
  ],
  [
    'a one-stage policy with repeat pages every interval',
    { delays: [0], repeat: 10 },
    { stageOrder: 1, cycle: 2, firedAt: min(20) },
    { stageOrder: 1, cycle: 3, dueAt: min(30) },
  ],
  ['a policy without stages is never due', { delays: [], repeat: 10 }, null, null],
  [
    'an outage: the overdue stage is due once, the next chains on its real fire time',
    { delays: [0, 15, 15], repeat: 0 },
    { stageOrder: 2, cycle: 0, firedAt: min(600) },
    { stageOrder: 3, cycle: 0, dueAt: min(615) },
  ],
];

for (const [title, policy, lastFired, expected] of cases) {
  test(title, (t) => {
    const plan = { stages: stages(...policy.delays), repeatIntervalMinutes: policy.repeat, startedAt: iso(T0) };
    t.deepEqual(nextDueStage(plan, lastFired && { ...lastFired, firedAt: iso(lastFired.firedAt) }), expected);
  });
}
