/**
 * Error and no-data states of a rule (src/process/read-failure-decision.ts): which failed reads page,
 * after how long, and how the paging rules of a tick become one incident per cluster and policy.
 */
import test from 'ava';
import {
  groupOfSubject,
  groupReadFailures,
  readFailureSubject,
  readFailureVerdict,
  type PagingRule,
  type ReadFailure,
  type ReadFailureVerdict,
} from '../src/process/read-failure-decision.js';
import type { ReadFailureState } from '../src/events/vocabulary.js';
import { replayReadFailures } from '../src/backtest/read-failure-replay.js';

const NOW = new Date('2026-05-01T10:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();

const table: [ReadFailureState, ReadFailureState, ReadFailure | null, string | null, ReadFailureVerdict][] = [
  // on_error, on_no_data, this read, failing since (before it), verdict
  ['alerting', 'alerting', null, null, 'none'],
  ['alerting', 'alerting', null, minutesAgo(30), 'none'],
  ['alerting', 'alerting', 'error', null, 'waiting'],
  ['alerting', 'alerting', 'error', minutesAgo(4), 'waiting'],
  ['alerting', 'alerting', 'error', minutesAgo(5), 'alerting'],
  ['alerting', 'alerting', 'no_data', minutesAgo(6), 'alerting'],
  ['alerting', 'ok', 'no_data', minutesAgo(60), 'none'],
  ['alerting', 'keep_last', 'no_data', minutesAgo(60), 'none'],
  ['alerting', 'keep_last', 'error', minutesAgo(60), 'alerting'],
  ['ok', 'alerting', 'error', minutesAgo(60), 'none'],
  ['keep_last', 'alerting', 'error', minutesAgo(60), 'none'],
  ['ok', 'alerting', 'no_data', minutesAgo(5), 'alerting'],
  ['ok', 'ok', 'error', minutesAgo(600), 'none'],
  ['keep_last', 'keep_last', 'no_data', minutesAgo(600), 'none'],
];

for (const [onError, onNoData, failure, since, verdict] of table) {
  test(`on_error ${onError}, on_no_data ${onNoData}: a ${failure ?? 'reading'} failing since ${since ?? 'never'} → ${verdict}`, (t) => {
    // Given a rule that pages after five minutes, when this evaluation's read came to `failure`…
    const settings = { onError, onNoData, errorForMinutes: 5 };
    // …then it pages only with `alerting` for that kind of failure, once the run is five minutes old.
    t.is(readFailureVerdict(settings, failure, since, NOW), verdict);
  });
}

test('error_for_minutes 0 pages at the first failed read', (t) => {
  const settings = { onError: 'alerting', onNoData: 'alerting', errorForMinutes: 0 } as const;
  t.is(readFailureVerdict(settings, 'error', null, NOW), 'alerting');
  t.is(readFailureVerdict(settings, 'no_data', null, NOW), 'alerting');
});

const ENV = '6f1c1f7e-2b7a-4d0e-9a43-2f0f6c6f8a01';
const POLICY = '0b6f5f2a-7d7c-4d1e-8f8e-3b1d5f7e9c02';
const OTHER_POLICY = '1c7a6b3b-8e8d-4e2f-9a9f-4c2e6a8fad03';
const paging = (ruleId: string, overrides: Partial<PagingRule> = {}): PagingRule => ({
  tenantId: 't1',
  ruleId,
  envId: ENV,
  clusterId: 'prod-1',
  escalationPolicyId: POLICY,
  severity: 'low',
  failure: 'error',
  message: 'cluster prod-1 of environment x is paused',
  ...overrides,
});

test('fifty failing rules of one cluster and policy are one incident listing them, at the highest severity', (t) => {
  const rules = Array.from({ length: 50 }, (_, i) =>
    paging(`rule-${String(i).padStart(2, '0')}`, { severity: i === 17 ? 'critical' : 'medium' }),
  );
  const groups = groupReadFailures(rules.reverse());
  t.is(groups.length, 1);
  t.like(groups[0], {
    tenantId: 't1',
    subject: `rule_error:${ENV}:prod-1:${POLICY}`,
    severity: 'critical',
    title: 'Cluster prod-1 cannot be read',
    clusterId: 'prod-1',
    escalationPolicyId: POLICY,
  });
  t.is(groups[0]!.ruleIds.length, 50);
  t.is(groups[0]!.ruleIds[0], 'rule-00', 'rules listed in a stable order');
  t.regex(groups[0]!.detail, /^cluster prod-1 of environment x is paused\n50 rules cannot evaluate\.$/);
});

test('another policy, cluster or tenant is another incident; only no-data says so in the title', (t) => {
  const groups = groupReadFailures([
    paging('a'),
    paging('b', { escalationPolicyId: OTHER_POLICY }),
    paging('c', { clusterId: 'prod-2', failure: 'no_data', message: 'no value' }),
    paging('d', { tenantId: 't2' }),
    paging('e', { clusterId: null }),
  ]);
  t.is(groups.length, 5);
  t.deepEqual(groups.map((group) => group.title).sort(), [
    'Cluster prod-1 cannot be read',
    'Cluster prod-1 cannot be read',
    'Cluster prod-1 cannot be read',
    'Cluster prod-2 returns no data',
    `The warehouse of environment ${ENV} cannot be read`,
  ]);
});

test('a subject names its group back, whatever the cluster is called', (t) => {
  for (const clusterId of ['prod-1', null, 'odd:name:with:colons']) {
    t.deepEqual(groupOfSubject(readFailureSubject(ENV, clusterId, POLICY)), {
      envId: ENV,
      clusterId,
      escalationPolicyId: POLICY,
    });
  }
  t.is(groupOfSubject(`heartbeat:${ENV}`), null);
});

test('a backtest opens the read-failure incident error_for_minutes into a run of missing history, and closes it at the next reading', (t) => {
  const minute = 60_000;
  const instants = Array.from({ length: 12 }, (_, i) => i * minute);
  // Given readings with a 6-minute hole (minutes 2–7) and one running to the end (minutes 10–11)…
  const readings = [1, 1, null, null, null, null, null, null, 1, 1, null, null];
  const alerting = { onError: 'alerting', onNoData: 'alerting', errorForMinutes: 3 } as const;
  // …then with alerting after 3 minutes one opens at minute 5 and closes at minute 8; the short tail opens none.
  t.deepEqual(replayReadFailures(alerting, instants, readings), [{ startedAt: 5 * minute, endedAt: 8 * minute }]);
  t.deepEqual(replayReadFailures({ ...alerting, errorForMinutes: 0 }, instants, readings), [
    { startedAt: 2 * minute, endedAt: 8 * minute },
    { startedAt: 10 * minute, endedAt: null },
  ]);
  t.deepEqual(replayReadFailures({ ...alerting, onError: 'keep_last' }, instants, readings), []);
});
