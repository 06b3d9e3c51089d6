/**
 * Issue 28, parts 2 and 3: two platform instances on one EventStoreDB and one MongoDB (the
 * protocol stand-ins, in process) share stream tickets, the simulator's pins and pauses, and
 * read-your-writes: what one instance was told, the other honours.
 */
import test from 'ava';
import { randomBytes, randomUUID } from 'node:crypto';
import { startEventStoreStandIn, type EventStoreStandIn } from './support/esdb-standin/server.js';
import { startTestIdentityProvider, type TestIdentityProvider } from './support/jwks-server.js';
import { startMongoStandIn, type MongoStandIn } from './support/mongo-standin/index.js';
import { connectSse } from './support/sse-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

let esdb: EventStoreStandIn;
let mongo: MongoStandIn;
let idp: TestIdentityProvider;
let a: TestApp;
let b: TestApp;

test.before(async () => {
  esdb = await startEventStoreStandIn();
  mongo = await startMongoStandIn();
  idp = await startTestIdentityProvider();
  const shared = {
    EVENTSTORE_URL: esdb.connectionString,
    MONGODB_URL: mongo.url,
    MONGODB_DATABASE: `cluster_${randomUUID().slice(0, 8)}`,
    SECRETS_KEY: randomBytes(32).toString('base64'),
  };
  // Different DATA_DIRs (startTestApp makes one each) and ports; B waits long for a read position, so the control below cannot time out.
  a = await startTestApp({ idp, env: { ...shared, READ_YOUR_WRITES_TIMEOUT_MS: '500' } });
  b = await startTestApp({ idp, env: { ...shared, READ_YOUR_WRITES_TIMEOUT_MS: '10000' } });
});
test.after.always(async () => {
  await a?.close();
  await b?.close();
  await idp?.stop();
  await mongo?.stop();
  await esdb?.stop();
});

const FEED = '/api/v1/incidents/stream';

test('a stream ticket from A opens the incident stream on B, and is refused on a second use anywhere', async (t) => {
  const caller = a.newTenant();
  const issued = await a.request('POST', '/api/v1/stream-tickets', { caller, body: { path: FEED } });
  t.is(issued.status, 201);
  const { ticket } = issued.body.data;
  const stream = connectSse(`${b.url}${FEED}?ticket=${encodeURIComponent(ticket)}`, {});
  t.teardown(() => stream.close());
  await waitFor(() => stream.status() !== 0, { message: 'B answers the stream' });
  t.is(stream.status(), 200);
  for (const instance of [a, b]) {
    const again = await instance.request('GET', `${FEED}?ticket=${encodeURIComponent(ticket)}`);
    t.is(again.status, 401, `second use on ${instance === a ? 'A' : 'B'}`);
  }
});

test('a metric pinned through A is read on B, and a pause through A holds on B, within a deadline', async (t) => {
  const caller = a.newTenant();
  const metric = 'queue_time_seconds';
  const read = () => b.platform.metrics.read({ envId: caller.envId, metric, windowMinutes: 5 });
  t.not(await read(), 4242.5, 'not pinned yet');
  const pinned = await a.request('POST', '/api/v1/simulator/metrics', {
    caller,
    body: { metric, value: 4242.5, duration_seconds: 600 },
  });
  t.is(pinned.status, 200);
  await waitFor(async () => (await read()) === 4242.5, {
    timeoutMs: 5000,
    intervalMs: 50,
    message: 'B reads the pinned value',
  });

  const paused = await a.request('POST', '/api/v1/simulator/cluster', { caller, body: { paused: true } });
  t.is(paused.status, 200);
  await waitFor(async () => (await b.request('GET', '/api/v1/warehouse/cluster', { caller })).status === 503, {
    timeoutMs: 5000,
    intervalMs: 50,
    message: 'B answers 503 for the paused cluster',
  });
  t.is((await b.request('POST', '/api/v1/simulator/cluster', { caller, body: { paused: false } })).status, 200);
  await waitFor(async () => (await a.request('GET', '/api/v1/warehouse/cluster', { caller })).status === 200, {
    timeoutMs: 5000,
    intervalMs: 50,
    message: 'resumed through B, A answers again',
  });
});

const channel = (name: string) => ({
  name,
  type: 'chat',
  config: { webhook_url: 'https://chat.example/hook', channel_name: '#ops' },
});

test.serial(
  'a write on A is seen by a GET on B that sends its X-Read-Position back, as header or as ?min_position=',
  async (t) => {
    const caller = a.newTenant();
    const created = await a.request('POST', '/api/v1/notification-channels', { caller, body: channel('ops chat') });
    t.is(created.status, 201);
    const position = created.headers.get('x-read-position');
    t.regex(position ?? '', /^\d+$/);
    const id = created.body.data.id;
    const read = await b.request('GET', `/api/v1/notification-channels/${id}`, {
      caller,
      headers: { 'x-min-read-position': position! },
    });
    t.is(read.status, 200);
    t.is(read.body.data.name, 'ops chat');
    t.is(read.headers.get('x-read-model-pending'), null);
    // The list route declares its own query parameters; min_position is accepted by every GET all the same.
    const listed = await b.request('GET', `/api/v1/notification-channels?min_position=${position}`, { caller });
    t.is(listed.status, 200, JSON.stringify(listed.body));
    t.deepEqual(
      listed.body.data.map((c: { id: string }) => c.id),
      [id],
    );
  },
);

test.serial(
  'control: with no projection running, B reads stale without the position and waits for it with the position',
  async (t) => {
    const caller = a.newTenant();
    // Both runners write the same read models: with both stopped, nothing applies the write until B's starts again.
    await a.platform.runner.stop();
    await b.platform.runner.stop();
    try {
      const created = await a.request('POST', '/api/v1/notification-channels', { caller, body: channel('late chat') });
      t.is(created.status, 201);
      t.is(created.headers.get('x-read-model-pending'), 'true');
      const position = created.headers.get('x-read-position')!;
      const id = created.body.data.id;
      t.is(
        (await b.request('GET', `/api/v1/notification-channels/${id}`, { caller })).status,
        404,
        'without the position B answers what it has',
      );
      const waiting = b.request('GET', `/api/v1/notification-channels/${id}`, {
        caller,
        headers: { 'x-min-read-position': position },
      });
      await b.platform.runner.start();
      const read = await waiting;
      t.is(read.status, 200);
      t.is(read.body.data.name, 'late chat');
    } finally {
      await a.platform.runner.start();
      await b.platform.runner.start().catch(() => undefined);
    }
  },
);

test('a malformed read position is a 400 naming it; a position the projections do not reach in time is answered, marked pending', async (t) => {
  const caller = a.newTenant();
  for (const [query, headers, named] of [
    ['?min_position=abc', {}, '/min_position'],
    ['?min_position=-1', {}, '/min_position'],
    ['?min_position=1&min_position=2', {}, '/min_position'],
    ['?min_position=99999999999999999999999', {}, '/min_position'],
    ['', { 'x-min-read-position': '1.5' }, '/X-Min-Read-Position'],
  ] as const) {
    const answer = await a.request('GET', `/api/v1/notification-channels${query}`, { caller, headers });
    t.is(answer.status, 400, `${query} ${JSON.stringify(headers)}`);
    t.regex(answer.headers.get('content-type') ?? '', /application\/problem\+json/);
    t.is(answer.body.errors[0].path, named);
  }
  const ahead = await a.request('GET', '/api/v1/notification-channels?min_position=18446744073709551615', { caller });
  t.is(ahead.status, 200);
  t.is(ahead.headers.get('x-read-model-pending'), 'true');
  t.is(
    (await a.request('GET', '/api/v1/notification-channels?min_position=0&bogus=1', { caller })).status,
    400,
    'other unknown parameters are still refused',
  );
});
