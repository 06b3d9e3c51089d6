import test from 'ava';
import { syncJobDecider } from '../commands/sync-jobs.js';
import type { SyncJobEvent } from '../src/events/sync-job.js';
import { deciderSpec } from './support/decider-spec.js';

const ref = { envId: 'env-a', jobId: 'query_history' as const };
const runId = '11111111-1111-4111-8111-111111111111';
const paused: SyncJobEvent = { type: 'SyncJobPaused', data: ref };
const resumed: SyncJobEvent = { type: 'SyncJobResumed', data: ref };
const lease = { instanceId: 'host-a', staleAfter: '2026-01-01T01:05:00.000Z' };
const started: SyncJobEvent = {
  type: 'SyncRunStarted',
  data: { ...ref, runId, trigger: 'manual', startedAt: '2026-01-01T00:00:00.000Z', ...lease },
};
/** A run recorded before instances were named: no instanceId, no staleAfter. */
const startedUnnamed: SyncJobEvent = {
  type: 'SyncRunStarted',
  data: { ...ref, runId, trigger: 'manual', startedAt: '2026-01-01T00:00:00.000Z' },
};
const NOW = '2026-03-01T12:00:00.000Z';
const result = { rows_extracted: 10, rows_upserted: 10, duration_ms: 1200, high_water: '2026-01-01T00:00:00.000Z' };

test('pause, then pause again is a conflict; resume, then resume again is a conflict', (t) => {
  deciderSpec(t, syncJobDecider)
    .given([])
    .when({ type: 'PauseSyncJob', ...ref })
    .then([paused]);
  deciderSpec(t, syncJobDecider)
    .given([paused])
    .when({ type: 'PauseSyncJob', ...ref })
    .thenRejects('conflict');
  deciderSpec(t, syncJobDecider)
    .given([paused])
    .when({ type: 'ResumeSyncJob', ...ref })
    .then([resumed]);
  deciderSpec(t, syncJobDecider)
    .given([])
    .when({ type: 'ResumeSyncJob', ...ref })
    .thenRejects('conflict');
  deciderSpec(t, syncJobDecider)
    .given([paused, resumed])
    .when({ type: 'ResumeSyncJob', ...ref })
    .thenRejects('conflict');
});

test('a run starts only on an active job that is not already running', (t) => {
  const start = { type: 'StartSyncRun' as const, ...ref, runId, trigger: 'manual' as const, ...lease };
  deciderSpec(t, syncJobDecider)
    .given([])
    .when(start, { now: new Date('2026-01-01T00:00:00.000Z') })
    .then([started]);
  deciderSpec(t, syncJobDecider).given([paused]).when(start).thenRejects('conflict');
  deciderSpec(t, syncJobDecider)
    .given([started])
    .when({ ...start, runId: '22222222-2222-4222-8222-222222222222' }, { now: new Date('2026-01-01T00:30:00.000Z') })
    .thenRejects('conflict');
});

test('only the running run finishes; success carries the result and moves the high-water mark', (t) => {
  const succeeded: SyncJobEvent = { type: 'SyncRunSucceeded', data: { ...ref, runId, finishedAt: NOW, ...result } };
  deciderSpec(t, syncJobDecider)
    .given([started])
    .when({ type: 'FinishSyncRun', ...ref, runId, outcome: { status: 'succeeded', result } })
    .then([succeeded]);
  deciderSpec(t, syncJobDecider)
    .given([])
    .when({ type: 'FinishSyncRun', ...ref, runId, outcome: { status: 'succeeded', result } })
    .thenRejects('conflict');
  const state = [started, succeeded].reduce(syncJobDecider.evolve, syncJobDecider.initialState());
  t.is(state.highWater, result.high_water);
  t.is(state.running, undefined);
  t.is(state.lastRun?.status, 'succeeded');
});

test('a failed run keeps the previous high-water mark and records the error', (t) => {
  const failed: SyncJobEvent = {
    type: 'SyncRunFailed',
    data: { ...ref, runId, finishedAt: NOW, duration_ms: 5, error: 'warehouse unavailable' },
  };
  deciderSpec(t, syncJobDecider)
    .given([started])
    .when({
      type: 'FinishSyncRun',
      ...ref,
      runId,
      outcome: { status: 'failed', error: 'warehouse unavailable', duration_ms: 5 },
    })
    .then([failed]);
  const state = [started, failed].reduce(syncJobDecider.evolve, {
    ...syncJobDecider.initialState(),
    highWater: 'before',
  });
  t.is(state.highWater, 'before');
  t.is(state.lastRun?.error, 'warehouse unavailable');
});

const interruptedAt = (at: string): SyncJobEvent => ({
  type: 'SyncRunFailed',
  data: {
    ...ref,
    runId,
    finishedAt: at,
    duration_ms: Date.parse(at) - Date.parse('2026-01-01T00:00:00.000Z'),
    error: 'interrupted',
  },
});

// Who may declare a running run dead at start-up: [case, run started by, asking instance, at, interrupted?]
const interruptionCases: [string, SyncJobEvent, string, string, boolean][] = [
  ['its own instance, restarted', started, 'host-a', '2026-01-01T00:10:00.000Z', true],
  ['another instance while the run is fresh', started, 'host-b', '2026-01-01T00:10:00.000Z', false],
  ['another instance just before staleAfter', started, 'host-b', '2026-01-01T01:04:59.999Z', false],
  ['another instance at staleAfter', started, 'host-b', '2026-01-01T01:05:00.000Z', true],
  [
    'any instance, for a run recorded before instances were named',
    startedUnnamed,
    'host-b',
    '2026-01-01T00:10:00.000Z',
    true,
  ],
];
for (const [name, run, instanceId, at, interrupted] of interruptionCases) {
  test(`a running run at start-up, asked by ${name}: ${interrupted ? 'failed as interrupted' : 'left alone'}`, (t) => {
    deciderSpec(t, syncJobDecider)
      .given([run])
      .when({ type: 'MarkInterruptedRun', ...ref, instanceId }, { now: new Date(at) })
      .then(interrupted ? [interruptedAt(at)] : []);
  });
}

test('an idle job gets no event at start-up', (t) => {
  deciderSpec(t, syncJobDecider)
    .given([])
    .when({ type: 'MarkInterruptedRun', ...ref, instanceId: 'host-a' })
    .then([]);
});

test('a start finding a run past its staleAfter fails it as interrupted and starts the new run in one append', (t) => {
  const next = {
    type: 'StartSyncRun' as const,
    ...ref,
    runId: '33333333-3333-4333-8333-333333333333',
    trigger: 'schedule' as const,
    instanceId: 'host-b',
    staleAfter: '2026-01-01T02:10:00.000Z',
  };
  deciderSpec(t, syncJobDecider)
    .given([started])
    .when(next, { now: new Date('2026-01-01T01:04:00.000Z') })
    .thenRejects('conflict');
  const at = '2026-01-01T01:05:00.000Z';
  deciderSpec(t, syncJobDecider)
    .given([started])
    .when(next, { now: new Date(at) })
    .then([
      interruptedAt(at),
      {
        type: 'SyncRunStarted',
        data: {
          ...ref,
          runId: next.runId,
          trigger: 'schedule',
          startedAt: at,
          instanceId: 'host-b',
          staleAfter: next.staleAfter,
        },
      },
    ]);
});
