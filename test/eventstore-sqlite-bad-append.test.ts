import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreUnavailableError } from '../src/eventstore/port.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { sampleEvent } from './support/eventstore-contract.js';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'es-bad-')), 'events.db');

test('an event that cannot be serialised fails its own append alone; its batch neighbours commit', async (t) => {
  const store = openSqliteEventStore({ filename: tempFile() });
  const circular: Record<string, unknown> = { name: 'loop' };
  circular.self = circular;
  // All four are issued in one event-loop turn, so they would share one group commit.
  const results = await Promise.allSettled([
    store.append('good-1', [sampleEvent('A')]),
    store.append('bad-bigint', [sampleEvent('B'), sampleEvent('C', { position: 12n })]),
    store.append('bad-circular', [sampleEvent('D', circular)]),
    store.append('good-2', [sampleEvent('E')]),
  ]);
  t.deepEqual(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'rejected', 'fulfilled'],
  );
  for (const result of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
    t.false(result.reason instanceof EventStoreUnavailableError, 'a bad event is not an outage');
  }
  const [, bigintFailure, circularFailure] = results as PromiseRejectedResult[];
  t.regex(String(bigintFailure!.reason.message), /bad-bigint.*event 1 \(C\).*BigInt/);
  t.regex(String(circularFailure!.reason.message), /bad-circular.*event 0 \(D\).*circular/);

  t.deepEqual(
    (await store.readAll()).map((e) => [e.streamName, e.type]),
    [
      ['good-1', 'A'],
      ['good-2', 'E'],
    ],
  );
  t.deepEqual(
    await store.readStream('bad-bigint'),
    [],
    'nothing of the bad append was written, not even its good event',
  );
  await store.close();
});

test('malformed appends are refused before they reach the batch', async (t) => {
  const store = openSqliteEventStore({ filename: tempFile() });
  const neighbour = store.append('good', [sampleEvent('A')]);
  await t.throwsAsync(store.append('s', [{ ...sampleEvent('A'), type: '' }]), {
    message: /event 0: type must be a non-empty string/,
  });
  await t.throwsAsync(store.append('s', [{ ...sampleEvent('A'), data: [] as unknown as Record<string, unknown> }]), {
    message: /event 0 \(A\): data must be an object/,
  });
  await t.throwsAsync(store.append('s', [{ ...sampleEvent('A'), id: 7 as unknown as string }]), {
    message: /event 0 \(A\): id must be a string/,
  });
  await t.throwsAsync(store.append('', [sampleEvent('A')]), { message: /stream name must be a non-empty string/ });
  await t.notThrowsAsync(neighbour);
  t.is(await store.headPosition(), 1n);
  await store.close();
});
