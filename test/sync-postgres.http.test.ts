/**
 * The Done-when of data sync with a server: the platform started with SYNC_DATABASE_URL writes its
 * mirror into that PostgreSQL server, where an analyst reads it with any client. Runs when
 * TEST_POSTGRES_URL names a server (.ci/run sets it when one answers locally).
 */
import test from 'ava';
import pg from 'pg';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const url = process.env.TEST_POSTGRES_URL;
const serverTest = url ? test.serial : test.skip;
if (!url) test('sync against a PostgreSQL server: skipped, TEST_POSTGRES_URL is not set', (t) => t.pass());

let app: TestApp | undefined;
let analyst: pg.Client | undefined;
test.before(async () => {
  if (!url) return;
  app = await startTestApp({ env: { SYNC_DATABASE_URL: url, SYNC_SCHEDULER: 'off' } });
  analyst = new pg.Client({ connectionString: url });
  await analyst.connect();
});
test.after.always(async () => {
  await analyst?.end();
  await app?.close();
});

serverTest(
  'every job triggered through the API lands its rows in the server, where a plain client reads them',
  async (t) => {
    const caller = app!.newTenant();
    const triggered = await app!.request('POST', '/api/v1/sync/trigger', { caller, body: {} });
    t.is(triggered.status, 202, JSON.stringify(triggered.body));
    const jobs: string[] = triggered.body.triggered_jobs;
    t.deepEqual([...jobs].sort(), [
      'alert_events',
      'cluster_metrics',
      'query_history',
      'table_storage',
      'wlm_queue_stats',
    ]);

    let history: { job_id: string; status: string; rows_upserted: number }[] = [];
    await waitFor(
      async () => {
        history = (await app!.request('GET', '/api/v1/sync/history?limit=20', { caller })).body.data;
        return history.length === jobs.length && history.every((entry) => entry.status !== 'running');
      },
      { timeoutMs: 60_000, intervalMs: 100, message: 'every triggered run to finish' },
    );
    for (const entry of history) {
      t.is(entry.status, 'success', JSON.stringify(entry));
      const { rows } = await analyst!.query(`SELECT count(*)::int AS n FROM ${entry.job_id} WHERE env_id = $1`, [
        caller.envId,
      ]);
      t.is(rows[0].n, entry.rows_upserted, entry.job_id);
    }
    t.true(history.some((entry) => entry.rows_upserted > 0));
    const health = await app!.request('GET', '/health');
    t.like(health.body.checks.relational_store, { status: 'up', kind: 'postgresql' });
  },
);
