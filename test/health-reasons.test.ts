/**
 * The reasons /health gives beyond pings: appends refused until one succeeds again, projections
 * failing or stopped, and read models behind the log by more than the bound.
 */
import test from 'ava';
import { trackingAppendRefusals } from '../src/eventstore/append-refusals.js';
import { WrongExpectedRevisionError, type EventStore } from '../src/eventstore/port.js';
import { projectionProblems } from '../src/projection/projection-health.js';
import { sampleEvent } from './support/eventstore-contract.js';

function flakyStore(outcomes: (Error | undefined)[]): EventStore {
  return {
    async append() {
      const outcome = outcomes.shift();
      if (outcome) throw outcome;
      return { position: 1n, nextExpectedRevision: 0n };
    },
  } as unknown as EventStore;
}

test('appends are reported refused from a failure until one succeeds again; a conflict is not a refusal', async (t) => {
  const full = new Error('database or disk is full');
  const { store, refusal } = trackingAppendRefusals(flakyStore([new WrongExpectedRevisionError('s', 0n, 1n), full, full, undefined]), () => new Date('2026-01-01T00:00:00Z'));
  await t.throwsAsync(store.append('s', [sampleEvent('X')]));
  t.is(refusal(), undefined, 'a conflict answers; it does not refuse');
  await t.throwsAsync(store.append('s', [sampleEvent('X')]));
  await t.throwsAsync(store.append('s', [sampleEvent('X')]));
  t.deepEqual(refusal(), { since: new Date('2026-01-01T00:00:00Z'), error: 'database or disk is full', refused: 2 });
  await store.append('s', [sampleEvent('X')]);
  t.is(refusal(), undefined);
});

test('projection problems name the failing or stopped projection and the one behind the log by more than the bound', (t) => {
  const statuses = [
    { name: 'channels', version: 1, position: 100n, lag: 0 },
    { name: 'incidents', version: 1, position: 100n, lag: 0, failing: 'the log subscription ended: database disk image is malformed' },
    { name: 'users', version: 1, position: 40n, lag: 0 },
  ];
  t.deepEqual(projectionProblems(statuses, 100n, 50), [
    'incidents is failing: the log subscription ended: database disk image is malformed',
    'users is 60 positions behind the log (bound 50)',
  ]);
  t.deepEqual(projectionProblems(statuses.slice(0, 1), 150n, 50), [], 'at the bound is not behind it');
});
