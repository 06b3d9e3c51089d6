/**
 * The background scrub (src/composition/log-scrub.ts) on the platform as it starts: a log whose
 * chain was changed outside it takes /health to 503 naming the break and `npm run verify`; an
 * intact one moves the time of the last clean scrub; and its schedule (once at start-up, then
 * every SCRUB_INTERVAL_HOURS after the previous one ended; 0: never) in virtual time.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Registry } from 'prom-client';
import { composeLogScrub } from '../src/composition/log-scrub.js';
import { loadConfig } from '../src/config.js';
import { scrubChainsHere } from '../src/eventstore/log-scrub.js';
import { findingsOf, judgeScrub } from '../src/eventstore/scrub-verdict.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { sampleEvent } from './support/eventstore-contract.js';
import { parsePrometheusText } from './support/prometheus-text.js';
import { startTestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

/** Six events in two streams no projection reads; position `changed`'s data changed in the file when given. */
async function logIn(changed?: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-scrub-'));
  const filename = join(dataDir, 'events.db');
  const store = openSqliteEventStore({ filename });
  for (let i = 0; i < 3; i++)
    await store.append(`audit-trail-${i % 2}`, [sampleEvent('Noted', { i }), sampleEvent('Noted', { i: i + 10 })]);
  await store.close();
  if (changed !== undefined) {
    const db = new Database(filename);
    db.prepare(`UPDATE events SET data = json_set(data, '$.i', 99) WHERE position = ?`).run(changed);
    db.close();
  }
  return dataDir;
}

async function scrubbedPlatform(t: import('ava').ExecutionContext, dataDir: string) {
  const app = await startTestApp({ dataDir, env: { SCRUB_INTERVAL_HOURS: '24' } });
  t.teardown(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const { scrub } = app.platform.composition;
  await waitFor(() => scrub.verdict() !== undefined, { timeoutMs: 60_000, intervalMs: 20, message: 'the scrub' });
  const health = await fetch(`${app.url}/health`);
  const metrics = parsePrometheusText(await (await fetch(`${app.url}/metrics`)).text());
  const value = (name: string) => metrics.find((sample) => sample.name === name)?.value;
  return { health: { status: health.status, body: (await health.json()) as any }, value };
}

test('a changed event anywhere in the log: the start-up scrub takes /health to 503 naming the break and `npm run verify`', async (t) => {
  const { health, value } = await scrubbedPlatform(t, await logIn(1));
  t.is(health.status, 503);
  t.is(health.body.checks.event_store.status, 'down');
  t.regex(
    health.body.checks.event_store.error,
    /^events\.db's hash chain is broken \(found by the scrub at .*: stream audit-trail-0 revision 0: the event no longer matches its hash .*\); it was changed outside the platform: run `npm run verify` for every break, and restore it from a backup taken before the change/,
  );
  t.is(health.body.checks.read_store.status, 'up');
  t.is(value('scrub_damage_found'), 1);
  t.is(value('scrub_last_clean_timestamp_seconds'), 0);
});

test('an intact log and read models: /health stays ok and the time of the last clean scrub is set', async (t) => {
  const before = Date.now() / 1000;
  const { health, value } = await scrubbedPlatform(t, await logIn());
  t.is(health.status, 200);
  t.is(value('scrub_damage_found'), 0);
  t.true(value('scrub_last_clean_timestamp_seconds')! >= Math.floor(before));
});

test('the scrub runs once right after start-up, then an interval after the previous one ended; 0 hours: never', async (t) => {
  const dataDir = await logIn();
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const scheduled: { run: () => void; ms: number }[] = [];
  const timers = { setTimeout: (run: () => void, ms: number) => scheduled.push({ run, ms }), clearTimeout: () => {} };
  const compose = (hours: string) =>
    composeLogScrub({
      config: loadConfig({ DATA_DIR: dataDir, SCRUB_INTERVAL_HOURS: hours }),
      logStore: undefined as never, // the embedded log is scrubbed through its file, not this store
      registry: new Registry(),
      logger: pino({ level: 'silent' }),
      timers,
    });

  const never = compose('0');
  never.process.start();
  t.is(scheduled.length, 0, 'SCRUB_INTERVAL_HOURS=0 schedules nothing');

  const scrub = compose('1.5');
  scrub.process.start();
  t.deepEqual(
    scheduled.map(({ ms }) => ms),
    [0],
    'the first, at once',
  );
  scheduled[0]!.run();
  await waitFor(() => scheduled.length === 2, { timeoutMs: 60_000, message: 'the next scrub scheduled' });
  t.true(scrub.verdict()!.clean);
  t.is(scheduled[1]!.ms, 1.5 * 3_600_000, 'the next one an interval after this one ended');
  await scrub.process.stop();
});

test('on EventStoreDB the scrub walks the chains through the client and finds an event changed on the server', async (t) => {
  const { startEventStoreStandIn } = await import('./support/esdb-standin/server.js');
  const { createEventStoreDbStore } = await import('../src/eventstore/eventstoredb.js');
  const standIn = await startEventStoreStandIn();
  t.teardown(() => standIn.stop());
  const store = createEventStoreDbStore(standIn.connectionString);
  t.teardown(() => store.close());
  await store.append('incident-a', [sampleEvent('IncidentTriggered', { n: 0 }), sampleEvent('IncidentAcknowledged')]);
  await store.append('incident-b', [sampleEvent('IncidentTriggered', { n: 0 })]);
  const esdb = { store: 'event_store' as const, name: 'the EventStoreDB log', recovery: 'restore it' };

  const intact = await scrubChainsHere(store).result;
  t.like(intact.chain, { events: 3, breakCount: 0 });
  t.true(judgeScrub(intact, { log: esdb, files: {} }).clean);

  t.true(standIn.rewriteEventData('incident-a', 1n, { n: 'changed' }));
  const verdict = judgeScrub(await scrubChainsHere(store).result, { log: esdb, files: {} });
  t.regex(
    findingsOf(verdict, 'event_store')!,
    /^the EventStoreDB log's hash chain is broken \(found by the scrub at .*: stream incident-a revision 1: the event no longer matches its hash/,
  );
});
