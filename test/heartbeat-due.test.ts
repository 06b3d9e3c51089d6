/**
 * The heartbeat's due math (src/events/heartbeat-due.ts), table-driven: overdue exactly at
 * since + interval + grace, `late` within the grace (which never pages), `failed` after a failed
 * run, `paused` when disabled; and the missed incident's words.
 */
import test from 'ava';
import {
  dueAtMs,
  heartbeatStatus,
  humanDuration,
  isOverdue,
  missedDetail,
  type HeartbeatTiming,
} from '../src/events/heartbeat-due.js';

const SINCE = '2026-03-01T12:00:00.000Z';
const at = (seconds: number) => Date.parse(SINCE) + seconds * 1000;
const timing = (fields: Partial<HeartbeatTiming> = {}): HeartbeatTiming => ({
  intervalSeconds: 3600,
  graceSeconds: 300,
  enabled: true,
  since: SINCE,
  lastPingStatus: 'success',
  ...fields,
});

const table: [string, Partial<HeartbeatTiming>, number, ReturnType<typeof heartbeatStatus>, boolean][] = [
  ['just pinged', {}, 0, 'up', false],
  ['a second before the interval', {}, 3599, 'up', false],
  ['at the interval: late, not paging', {}, 3600, 'late', false],
  ['a second before interval + grace', {}, 3899, 'late', false],
  ['exactly at interval + grace: down', {}, 3900, 'down', true],
  ['long past', {}, 86_400, 'down', true],
  ['never pinged, early', { lastPingStatus: null }, 10, 'new', false],
  ['never pinged, past interval + grace', { lastPingStatus: null }, 3900, 'down', true],
  ['a failed run, within the interval', { lastPingStatus: 'fail' }, 60, 'failed', false],
  ['a failed run, then silence past the grace', { lastPingStatus: 'fail' }, 3900, 'down', true],
  ['no grace: down at the interval', { graceSeconds: 0 }, 3600, 'down', true],
  ['disabled, long past', { enabled: false }, 86_400, 'paused', false],
  ['a 31-day interval, 30 days on', { intervalSeconds: 31 * 86_400 }, 30 * 86_400, 'up', false],
];

for (const [name, fields, seconds, status, overdue] of table) {
  test(`due math: ${name}`, (t) => {
    t.is(heartbeatStatus(timing(fields), at(seconds)), status);
    t.is(isOverdue(timing(fields), at(seconds)), overdue);
  });
}

test('due at since + interval + grace', (t) => {
  t.is(new Date(dueAtMs(timing())).toISOString(), '2026-03-01T13:05:00.000Z');
});

test('durations read as people say them', (t) => {
  const cases: [number, string][] = [
    [0, '0 s'],
    [45, '45 s'],
    [60, '1 min'],
    [90, '1 min 30 s'],
    [3600, '1 h'],
    [5400, '1 h 30 min'],
    [86_400, '1 d'],
    [31 * 86_400, '31 d'],
  ];
  for (const [seconds, words] of cases) t.is(humanDuration(seconds), words, String(seconds));
});

test("the missed incident's detail says since when and what was expected", (t) => {
  t.is(
    missedDetail({ ...timing(), neverPinged: false }),
    'no ping since 2026-03-01T12:00:00.000Z; expected every 1 h (grace 5 min)',
  );
  t.is(
    missedDetail({ ...timing({ lastPingStatus: null }), neverPinged: true }),
    'no ping since it was set up at 2026-03-01T12:00:00.000Z; expected every 1 h (grace 5 min)',
  );
});
