/**
 * /health and the embedded relational store: it is reported, but a health check never opens it
 * (the embedded PostgreSQL costs hundreds of MiB and seconds of compilation); once something used
 * it, the check pings it.
 */
import test from 'ava';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * One platform for both tests, run one after the other: the first needs a store nothing has
 * opened yet, and the second opens nothing.
 */
let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

test.serial(
  'a fresh platform reports the embedded store as not opened (not up: nothing was verified) and does not open it; once used, it is pinged and up',
  async (t) => {
    const first = await app.request('GET', '/health');
    t.is(first.status, 200);
    t.like(first.body.checks.relational_store, { status: 'not_opened', kind: 'embedded', state: 'not_opened' });
    t.is(first.body.status, 'ok', 'a store not opened is not a failure');
    const again = await app.request('GET', '/health');
    t.like(again.body.checks.relational_store, { state: 'not_opened' }, 'the first check did not start opening it');

    await app.platform.syncStore.ping();
    const opened = await app.request('GET', '/health');
    t.is(opened.status, 200);
    t.like(opened.body.checks.relational_store, { status: 'up', kind: 'embedded' });
    t.is(opened.body.checks.relational_store.state, undefined);
  },
);

test.serial(
  'the simulated warehouse is not_checked (nothing to ask), paused while the simulator pauses an environment, and /health stays 200',
  async (t) => {
    const before = await app.request('GET', '/health');
    t.is(before.status, 200);
    t.like(before.body.checks.warehouse, { status: 'not_checked', mode: 'simulated' });
    const caller = app.newTenant();
    t.is((await app.request('POST', '/api/v1/simulator/cluster', { caller, body: { paused: true } })).status, 200);
    const paused = await app.request('GET', '/health');
    t.is(paused.status, 200);
    t.like(paused.body.checks.warehouse, { status: 'paused', mode: 'simulated', paused_environments: [caller.envId] });
    t.is(paused.body.status, 'ok');
    t.is((await app.request('POST', '/api/v1/simulator/cluster', { caller, body: { paused: false } })).status, 200);
    t.like((await app.request('GET', '/health')).body.checks.warehouse, { status: 'not_checked' });
  },
);
