/**
 * The relational store's cluster_metrics as backtest history (src/syncstore/metric-history.ts), on
 * every adapter under test (embedded always, a server with TEST_POSTGRES_URL): the newest sample
 * at or before an instant answers it for one sync interval; nothing newer means missing; a rule
 * over every cluster reads only instants where every cluster has a sample (volumes add, gauges
 * take the worst).
 */
import test from 'ava';
import { createSyncStore } from '../src/syncstore/store.js';
import { syncStoreHistorySource } from '../src/syncstore/metric-history.js';
import { adaptersUnderTest } from './support/sync-store-adapters.js';

const MIN = 60_000;
const T = Date.parse('2026-11-01T00:00:00Z');
const at = (minute: number) => T + minute * MIN;

for (const adapter of adaptersUnderTest) {
  test(`${adapter.name}: readings from samples, gaps where there are none`, async (t) => {
    const { connection, schema } = await adapter.open();
    const store = createSyncStore(connection);
    t.teardown(async () => {
      await store.close();
      await adapter.cleanUp(schema);
    });
    await store.migrate();
    const sample = (cluster: string, metric: string, minute: number, value: number) => ({
      env_id: 'env',
      cluster_id: cluster,
      metric,
      sampled_at: new Date(at(minute)),
      value,
      synced_at: new Date(at(minute)),
    });
    await store.upsert('cluster_metrics', [
      // Cluster a every 5 minutes from 0 to 15, then nothing until 40; cluster b at 0 and 5 only.
      ...[0, 5, 10, 15, 40].map((m) => sample('a', 'disk_spill_gb', m, m + 1)),
      ...[0, 5].map((m) => sample('b', 'disk_spill_gb', m, 100)),
      ...[0, 5, 10, 15, 40].map((m) => sample('a', 'queue_time_seconds', m, m * 10)),
      ...[0, 5].map((m) => sample('b', 'queue_time_seconds', m, 45)),
      // Another environment's sample is not this one's history.
      { ...sample('a', 'disk_spill_gb', 21, 999), env_id: 'other-env' },
    ]);
    const source = syncStoreHistorySource({ store, lookbackMs: 5 * MIN });
    const instants = [0, 3, 5, 12, 20, 21, 30, 40, 45].map(at);
    const one = await source.read({
      envId: 'env',
      clusterId: 'a',
      metric: 'disk_spill_gb',
      windowMinutes: 5,
      instants,
    });
    t.deepEqual(
      one.readings,
      [1, 1, 6, 11, 16, null, null, 41, 41],
      'a sample stands for five minutes, then the instant is missing',
    );
    t.deepEqual(one.notes, []);
    const spill = await source.read({
      envId: 'env',
      clusterId: null,
      metric: 'disk_spill_gb',
      windowMinutes: 5,
      instants,
    });
    t.deepEqual(
      spill.readings,
      [101, 101, 106, null, null, null, null, null, null],
      'spill adds up over clusters; b stops at 5, so later instants are missing',
    );
    const queue = await source.read({
      envId: 'env',
      clusterId: null,
      metric: 'queue_time_seconds',
      windowMinutes: 15,
      instants: [0, 3, 5].map(at),
    });
    t.deepEqual(queue.readings, [45, 45, 50], 'a gauge takes the worst cluster');
    t.true(queue.notes.some((n) => n.includes('15-minute window')));
    const none = await source.read({
      envId: 'nobody',
      clusterId: null,
      metric: 'disk_spill_gb',
      windowMinutes: 5,
      instants,
    });
    t.deepEqual(
      none.readings,
      instants.map(() => null),
    );
  });
}
