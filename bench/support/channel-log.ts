/**
 * The log the start-up benchmarks read: notification channels over 100 tenants, each stream a
 * ChannelCreated and nine ChannelUpdated, written through the platform's own SQLite event store
 * adapter (the real append path: serialised, hash-chained and committed on its writer thread) in
 * large group commits of many multi-event appends.
 */
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.js';

export const EVENTS_PER_STREAM = 10;
/** Appends in one group commit: 2,000 appends of 10 events, 20,000 events per transaction. */
export const APPENDS_PER_BATCH = 2000;
export const TENANT_COUNT = 100;

export async function generateChannelLog(filename: string, events: number) {
  const tenants = Array.from({ length: TENANT_COUNT }, () => randomUUID());
  const started = performance.now();
  const store = openSqliteEventStore({ filename });
  const streams = Math.ceil(events / EVENTS_PER_STREAM);
  let written = 0;
  let head = 0n;
  for (let s = 0; s < streams; s += APPENDS_PER_BATCH) {
    const batch = [];
    for (let i = s; i < Math.min(streams, s + APPENDS_PER_BATCH); i++) {
      const channelId = randomUUID();
      const metadata = {
        tenantId: tenants[i % tenants.length]!,
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
    for (const { position } of await Promise.all(batch)) if (position > head) head = position;
  }
  await store.close();
  return {
    head,
    events: written,
    streams,
    seconds: +((performance.now() - started) / 1000).toFixed(1),
    events_db_mib: Math.round(statSync(filename).size / 2 ** 20),
  };
}
