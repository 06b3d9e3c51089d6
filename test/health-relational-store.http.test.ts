/**
 * /health and the embedded relational store: it is reported, but a health check never opens it
 * (the embedded PostgreSQL costs hundreds of MiB and seconds of compilation); once something used
 * it, the check pings it.
 */
import test from 'ava';
import { startTestApp } from './support/test-app.js';

test('a fresh platform reports the embedded store as not opened, up, and does not open it; once used, it is pinged', async (t) => {
  const app = await startTestApp();
  try {
    const first = await app.request('GET', '/health');
    t.is(first.status, 200);
    t.like(first.body.checks.relational_store, { status: 'up', kind: 'embedded', state: 'not_opened' });
    const again = await app.request('GET', '/health');
    t.like(again.body.checks.relational_store, { state: 'not_opened' }, 'the first check did not start opening it');

    await app.platform.syncStore.ping();
    const opened = await app.request('GET', '/health');
    t.is(opened.status, 200);
    t.like(opened.body.checks.relational_store, { status: 'up', kind: 'embedded' });
    t.is(opened.body.checks.relational_store.state, undefined);
  } finally {
    await app.close();
  }
});
