import test from 'ava';
import { ConfigError, loadConfig } from '../src/config.js';

test('SYNC_* defaults: embedded store, UTC, 5 s stream period, scheduler on', (t) => {
  t.like(loadConfig({}).sync, {
    databaseUrl: undefined,
    intervals: {},
    timeZone: 'UTC',
    streamPeriodMs: 5000,
    streams: { perPerson: 5, perTenant: 2000 },
    scheduler: true,
  });
});

test('SYNC_INTERVALS names jobs and seconds', (t) => {
  t.deepEqual(loadConfig({ SYNC_INTERVALS: 'query_history=300, table_storage=3600' }).sync.intervals, {
    query_history: 300,
    table_storage: 3600,
  });
});

const bad: [string, Record<string, string>, RegExp][] = [
  ['an unknown job', { SYNC_INTERVALS: 'queries=300' }, /SYNC_INTERVALS: "queries=300"/],
  ['an interval under a minute', { SYNC_INTERVALS: 'query_history=10' }, /SYNC_INTERVALS/],
  ['no seconds', { SYNC_INTERVALS: 'query_history' }, /SYNC_INTERVALS/],
  ['an unknown time zone', { SYNC_TIMEZONE: 'Mars/Olympus' }, /SYNC_TIMEZONE/],
  ['a non-postgres URL', { SYNC_DATABASE_URL: 'mysql://x' }, /SYNC_DATABASE_URL/],
  ['a zero stream period', { SYNC_STREAM_PERIOD_SECONDS: '0' }, /SYNC_STREAM_PERIOD_SECONDS/],
];
for (const [name, env, message] of bad) {
  test(`start-up refuses ${name}, naming the variable`, (t) => {
    t.throws(() => loadConfig(env), { instanceOf: ConfigError, message });
  });
}
