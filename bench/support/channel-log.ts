/**
 * A large embedded log for benchmarks, written through the platform's own SQLite event store
 * (serialised, hash-chained and committed on its writer thread) in large group commits: streams
 * of notification channels, a ChannelCreated and nine ChannelUpdated each, over 100 tenants.
 */
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.js';

const EVENTS_PER_STREAM = 10;
/** 2,000 appends of 10 events: 20,000 events per transaction. */
const APPENDS_PER_BATCH = 2000;
const TENANTS = Array.from({ length: 100 }, () => randomUUID());

export async function writeChannelLog(dataDir: string, events: number) {
  const started = performance.now();
  const store = openSqliteEventStore({ filename: join(dataDir, 'events.db') });
  const streams = Math.ceil(events / EVENTS_PER_STREAM);
  let written = 0;
  for (let s = 0; s < streams; s += APPENDS_PER_BATCH) {
    const batch = [];
    for (let i = s; i < Math.min(streams, s + APPENDS_PER_BATCH); i++) {
      const channelId = randomUUID();
      const metadata = {
        tenantId: TENANTS[i % TENANTS.length]!,
        actor: 'bench',
        correlationId: channelId,
        causationId: channelId,
        occurredAt: new Date().toISOString(),
      };
      const count = Math.min(EVENTS_PER_STREAM, events - written);
      written += count;
      const stream = Array.from({ length: count }, (_, revision) => ({
        type: revision === 0 ? 'ChannelCreated' : 'ChannelUpdated',
        data: {
          channelId,
          name: `channel ${i} v${revision}`,
          type: 'email',
          config: { recipients: [`oncall-${i % 97}@example.com`], subject_template: '[{{severity}}] {{rule_name}}' },
        },
        metadata,
      }));
      batch.push(store.append(`channel-${channelId}`, stream, { expectedRevision: 'no_stream' }));
    }
    await Promise.all(batch);
  }
  await store.close();
  return {
    events: written,
    streams,
    seconds: +((performance.now() - started) / 1000).toFixed(1),
    events_db_mib: +(statSync(join(dataDir, 'events.db')).size / 2 ** 20).toFixed(1),
  };
}
