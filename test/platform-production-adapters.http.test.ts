/**
 * The whole platform on its production adapters (EventStoreDB + MongoDB), driven through the
 * protocol stand-ins: a channel goes through commands, the log, the projection and the queries.
 */
import test from 'ava';
import { startEventStoreStandIn } from './support/esdb-standin/server.js';
import { startMongoStandIn } from './support/mongo-standin/index.js';
import { startTestApp } from './support/test-app.js';

test('channels work end to end on EventStoreDB and MongoDB', async (t) => {
  const esdb = await startEventStoreStandIn();
  const mongo = await startMongoStandIn();
  const app = await startTestApp({ env: { EVENTSTORE_URL: esdb.connectionString, MONGODB_URL: mongo.url } });
  try {
    const caller = app.newTenant();
    const body = {
      name: 'ops chat',
      type: 'chat',
      config: { webhook_url: 'https://chat.example/hook', channel_name: '#ops' },
    };
    const created = await app.request('POST', '/api/v1/notification-channels', { caller, body });
    t.is(created.status, 201);
    const id = created.body.data.id;
    const read = await app.request('GET', `/notification-channels/${id}`, { caller });
    t.is(read.status, 200);
    t.like(read.body.data, { id, name: 'ops chat', type: 'chat' });
    const updated = await app.request('PUT', `/notification-channels/${id}`, {
      caller,
      body: { ...body, name: 'renamed' },
      headers: { 'if-match': '"0"' },
    });
    t.is(updated.status, 200);
    t.is((await app.request('GET', '/notification-channels', { caller })).body.data[0].name, 'renamed');
    const health = await app.request('GET', '/health');
    t.is(health.status, 200);
    t.is(health.body.checks.event_store.status, 'up');
    t.is(health.body.checks.read_store.status, 'up');
  } finally {
    await app.close();
    await mongo.stop();
    await esdb.stop();
  }
});
