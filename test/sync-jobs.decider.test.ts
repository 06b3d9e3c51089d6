import test from 'ava';
import { syncJobDecider } from '../commands/sync-jobs.js';
import type { SyncJobEvent } from '../src/events/sync-job.js';
import { deciderSpec } from './support/decider-spec.js';

const ref = { envId: 'env-a', jobId: 'query_history' as const };
const runId = '11111111-1111-4111-8111-111111111111';
const paused: SyncJobEvent = { type: 'SyncJobPaused', data: ref };
const resumed: SyncJobEvent = { type: 'SyncJobResumed', data: ref };
const started: SyncJobEvent = { type: 'SyncRunStarted', data: { ...ref, runId, trigger: 'manual', startedAt: '2026-01-01T00:00:00.000Z' } };
const NOW = '2026-03-01T12:00:00.000Z';
const result = { rows_extracted: 10, rows_upserted: 10, duration_ms: 1200, high_water: '2026-01-01T00:00:00.000Z' };

test('pause, then pause again is a conflict; resume, then resume again is a conflict', (t) => {
  deciderSpec(t, syncJobDecider).given([]).when({ type: 'PauseSyncJob', ...ref }).then([paused]);
  deciderSpec(t, syncJobDecider).given([paused]).when({ type: 'PauseSyncJob', ...ref }).thenRejects('conflict');
  deciderSpec(t, syncJobDecider).given([paused]).when({ type: 'ResumeSyncJob', ...ref }).then([resumed]);
  deciderSpec(t, syncJobDecider).given([]).when({ type: 'ResumeSyncJob', ...ref }).thenRejects('conflict');
  deciderSpec(t, syncJobDecider).given([paused, resumed]).when({ type: 'ResumeSyncJob', ...ref }).thenRejects('conflict');
});

test('a run starts only on an active job that is not already running', (t) => {
  const start = { type: 'StartSyncRun' as const, ...ref, runId, trigger: 'manual' as const };
  deciderSpec(t, syncJobDecider).given([]).when(start, { now: new Date('2026-01-01T00:00:00.000Z') }).then([started]);
  deciderSpec(t, syncJobDecider).given([paused]).when(start).thenRejects('conflict');
  deciderSpec(t, syncJobDecider).given([started]).when({ ...start, runId: '22222222-2222-4222-8222-222222222222' }).thenRejects('conflict');
});

test('only the running run finishes; success carries the result and moves the high-water mark', (t) => {
  const succeeded: SyncJobEvent = { type: 'SyncRunSucceeded', data: { ...ref, runId, finishedAt: NOW, ...result } };
  deciderSpec(t, syncJobDecider).given([started]).when({ type: 'FinishSyncRun', ...ref, runId, outcome: { status: 'succeeded', result } }).then([succeeded]);
  deciderSpec(t, syncJobDecider).given([]).when({ type: 'FinishSyncRun', ...ref, runId, outcome: { status: 'succeeded', result } }).thenRejects('conflict');
  const state = [started, succeeded].reduce(syncJobDecider.evolve, syncJobDecider.initialState());
  t.is(state.highWater, result.high_water);
  t.is(state.running, undefined);
  t.is(state.lastRun?.status, 'succeeded');
});

test('a failed run keeps the previous high-water mark and records the error', (t) => {
  const failed: SyncJobEvent = { type: 'SyncRunFailed', data: { ...ref, runId, finishedAt: NOW, duration_ms: 5, error: 'warehouse unavailable' } };
  deciderSpec(t, syncJobDecider).given([started]).when({ type: 'FinishSyncRun', ...ref, runId, outcome: { status: 'failed', error: 'warehouse unavailable', duration_ms: 5 } }).then([failed]);
  const state = [started, failed].reduce(syncJobDecider.evolve, { ...syncJobDecider.initialState(), highWater: 'before' });
  t.is(state.highWater, 'before');
  t.is(state.lastRun?.error, 'warehouse unavailable');
});

test('a run left running is marked failed (interrupted) at start-up; an idle job gets no event', (t) => {
  deciderSpec(t, syncJobDecider).given([started]).when({ type: 'MarkInterruptedRun', ...ref }).then([
    { type: 'SyncRunFailed', data: { ...ref, runId, finishedAt: NOW, duration_ms: Date.parse(NOW) - Date.parse('2026-01-01T00:00:00.000Z'), error: 'interrupted' } },
  ]);
  deciderSpec(t, syncJobDecider).given([]).when({ type: 'MarkInterruptedRun', ...ref }).then([]);
});
