import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { eventChainContract } from './support/eventstore-chain-contract.js';
import { eventStoreContract, sampleEvent } from './support/eventstore-contract.js';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'es-')), 'events.db');

eventStoreContract('sqlite', { open: async () => openSqliteEventStore({ filename: tempFile() }) });
eventChainContract('sqlite', { open: async () => openSqliteEventStore({ filename: tempFile() }) });

test('appends that arrive together are committed together and each checked on its own', async (t) => {
  const store = openSqliteEventStore({ filename: tempFile() });
  await store.append('s-1', [sampleEvent('A')]);
  const results = await Promise.allSettled([
    store.append('s-1', [sampleEvent('B')], { expectedRevision: 0n }),
    store.append('s-1', [sampleEvent('C')], { expectedRevision: 0n }),
    store.append('s-2', [sampleEvent('D')], { expectedRevision: 'no_stream' }),
  ]);
  t.deepEqual(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  t.deepEqual(
    (await store.readStream('s-1')).map((e) => e.type),
    ['A', 'B'],
  );
  await store.close();
});

test('events survive closing and reopening the file', async (t) => {
  const filename = tempFile();
  const first = openSqliteEventStore({ filename });
  await first.append('s-1', [sampleEvent('A'), sampleEvent('B')]);
  await first.close();
  const second = openSqliteEventStore({ filename });
  t.deepEqual(
    (await second.readStream('s-1')).map((e) => e.type),
    ['A', 'B'],
  );
  t.is(await second.headPosition(), 2n);
  await second.close();
});

test('retention by age hides and then deletes events older than the limit', async (t) => {
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const store = openSqliteEventStore({ filename: tempFile(), now: () => clock });
  await store.setStreamRetention('ruleEvaluations-1', { maxAgeSeconds: 60 });
  await store.append('ruleEvaluations-1', [sampleEvent('Old')]);
  clock += 30_000;
  await store.append('ruleEvaluations-1', [sampleEvent('Middle')]);
  clock += 45_000;
  t.deepEqual(
    (await store.readStream('ruleEvaluations-1')).map((e) => e.type),
    ['Middle'],
    'expired on read',
  );
  await store.append('ruleEvaluations-1', [sampleEvent('New')]);
  const all = (await store.readAll()).map((e) => e.type);
  t.deepEqual(all, ['Middle', 'New'], 'deleted from the log on the next append');
  await store.close();
});

test('a subscription ends when the store closes', async (t) => {
  const store = openSqliteEventStore({ filename: tempFile() });
  const sub = store.subscribeToAll();
  const done = (async () => {
    for await (const _ of sub) t.fail('no events were written');
    return 'ended';
  })();
  await store.close();
  t.is(await done, 'ended');
});
