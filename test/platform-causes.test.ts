/**
 * When each of the platform's own causes pages and when it clears (src/process/platform-causes.ts):
 * table-driven, one row per situation.
 */
import test from 'ava';
import {
  evaluatorStalled,
  eventStoreVerdict,
  projectionVerdict,
  syncJobOverdue,
  trackProjection,
  type ProjectionTrack,
} from '../src/process/platform-causes.js';

const T0 = Date.parse('2026-03-02T10:00:00.000Z');
const MINUTE = 60_000;

const evaluatorRows: [string, { lastTickAt: number | null; now: number }, boolean][] = [
  ['ticked a moment ago', { lastTickAt: T0, now: T0 + MINUTE }, false],
  ['two intervals and a bit without a tick', { lastTickAt: T0, now: T0 + 2.9 * MINUTE }, false],
  ['three intervals without a tick', { lastTickAt: T0, now: T0 + 3 * MINUTE }, true],
  ['never ticked, watch started two intervals ago', { lastTickAt: null, now: T0 + 2 * MINUTE }, false],
  ['never ticked, watch started three intervals ago', { lastTickAt: null, now: T0 + 3 * MINUTE }, true],
  ['ticked again after a stall', { lastTickAt: T0 + 10 * MINUTE, now: T0 + 10.5 * MINUTE }, false],
];
for (const [name, input, pages] of evaluatorRows) {
  test(`evaluator: ${name} → ${pages ? 'pages' : 'quiet'}`, (t) => {
    const verdict = evaluatorStalled({ ...input, watchStartedAt: T0, intervalMs: MINUTE });
    t.is(verdict !== null, pages);
    if (verdict) t.regex(verdict.title, /has not ticked for 3 intervals/);
  });
}

const STUCK = 5 * MINUTE;
const projectionRows: [
  string,
  ProjectionTrack | undefined,
  { position: bigint; lag: number; failing?: string },
  number,
  string | null,
][] = [
  ['up to date', { position: 10n, progressAt: T0 }, { position: 10n, lag: 0 }, T0 + 10 * MINUTE, null],
  ['behind and moving', { position: 10n, progressAt: T0 }, { position: 20n, lag: 50 }, T0 + 10 * MINUTE, null],
  [
    'behind, still, within the bound',
    { position: 10n, progressAt: T0 },
    { position: 10n, lag: 5 },
    T0 + 4 * MINUTE,
    null,
  ],
  [
    'behind, still, past the bound',
    { position: 10n, progressAt: T0 },
    { position: 10n, lag: 5 },
    T0 + 5 * MINUTE,
    'stuck',
  ],
  ['first seen behind', undefined, { position: 10n, lag: 5 }, T0 + 60 * MINUTE, null],
  ['reports a failure', { position: 10n, progressAt: T0 }, { position: 10n, lag: 1, failing: 'boom' }, T0, 'failing'],
];
for (const [name, previous, status, now, expected] of projectionRows) {
  test(`projection: ${name} → ${expected ?? 'quiet'}`, (t) => {
    const full = { name: 'incidents', ...status };
    const track = trackProjection(previous, full, now);
    const verdict = projectionVerdict(full, track, now, STUCK);
    t.is(verdict === null ? null : /failing/.test(verdict.title) ? 'failing' : 'stuck', expected);
  });
}

const refusal = { since: new Date(T0), error: 'SQLITE_FULL: database or disk is full', refused: 4 };
const storeRows: [string, typeof refusal | undefined, typeof refusal | undefined, string | null][] = [
  ['appends work, nothing untold', undefined, undefined, null],
  ['refusing now', refusal, refusal, 'refuses'],
  ['refused, appends work again, not yet told', undefined, refusal, 'refused'],
];
for (const [name, current, unreported, expected] of storeRows) {
  test(`event store: ${name} → ${expected ?? 'quiet'}`, (t) => {
    const verdict = eventStoreVerdict(current, unreported);
    t.is(verdict === null ? null : /refuses/.test(verdict.title) ? 'refuses' : 'refused', expected);
    if (verdict) t.regex(verdict.detail ?? '', /4 refused; the last: SQLITE_FULL/);
  });
}

const job = {
  name: 'Table storage',
  paused: false,
  alertPolicyId: '00000000-0000-4000-8000-000000000001',
  alertAfterMissedRuns: 3,
  lastSucceededAt: new Date(T0).toISOString(),
  alertingSince: new Date(T0 - 60 * MINUTE).toISOString(),
  lastError: 'cluster c1 is paused',
  intervalMs: 5 * MINUTE,
};
const syncRows: [string, Partial<typeof job>, number, string | null][] = [
  ['succeeded within its intervals', {}, T0 + 10 * MINUTE, null],
  ['the check at the third missed run', {}, T0 + 15 * MINUTE, 'overdue'],
  ['the third run finished sooner than the last success', {}, T0 + 14 * MINUTE, 'overdue'],
  ['two missed runs', {}, T0 + 12 * MINUTE, null],
  ['N = 1: the first missed run', { alertAfterMissedRuns: 1 }, T0 + 5 * MINUTE, 'overdue'],
  ['paused', { paused: true }, T0 + 60 * MINUTE, 'unwatched'],
  ['no policy', { alertPolicyId: null as unknown as string }, T0 + 60 * MINUTE, 'unwatched'],
  [
    'never succeeded: counted from when its heartbeat was set',
    { lastSucceededAt: null as unknown as string },
    T0 - 44 * MINUTE,
    'overdue',
  ],
  [
    'never succeeded, heartbeat set just now',
    { lastSucceededAt: null as unknown as string, alertingSince: new Date(T0).toISOString() },
    T0 + 5 * MINUTE,
    null,
  ],
];
for (const [name, change, now, expected] of syncRows) {
  test(`sync job: ${name} → ${expected ?? 'quiet'}`, (t) => {
    const verdict = syncJobOverdue({ ...job, ...change, now });
    t.is(verdict === null ? null : verdict === 'unwatched' ? 'unwatched' : 'overdue', expected);
    if (verdict && verdict !== 'unwatched') {
      t.is(verdict.title, `Table storage has not succeeded for ${change.alertAfterMissedRuns ?? 3} runs`);
      t.is(verdict.detail, 'cluster c1 is paused', 'the last error is the detail');
    }
  });
}
