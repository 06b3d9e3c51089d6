import test from 'ava';
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { createEventStoreDbStore } from '../src/eventstore/eventstoredb.js';
import { EventStoreUnavailableError, type EventStore, type RecordedEvent } from '../src/eventstore/port.js';
import { startEventStoreStandIn, type EventStoreStandIn } from './support/esdb-standin/server.js';
import { eventChainContract } from './support/eventstore-chain-contract.js';
import { eventStoreContract, sampleEvent } from './support/eventstore-contract.js';
import { waitFor } from './support/wait-for.js';

let standIn: EventStoreStandIn;
test.before(async () => {
  standIn = await startEventStoreStandIn();
});
test.after.always(async () => {
  await standIn?.stop();
});

/** Quick retries, so tests that drop subscriptions do not wait for the production backoff. */
const openStandInStore = () =>
  createEventStoreDbStore(standIn.connectionString, { resubscribeBackoff: { initialDelayMs: 5, maxDelayMs: 50 } });

eventStoreContract('eventstoredb stand-in', { open: async () => openStandInStore() });
eventChainContract('eventstoredb stand-in', { open: async () => openStandInStore() });

const realServerUrl = process.env.EVENTSTORE_URL;
const realServer = {
  skipReason: realServerUrl ? undefined : 'EVENTSTORE_URL is not set',
  open: async () => createEventStoreDbStore(realServerUrl!),
};
eventStoreContract('eventstoredb real server', realServer);
eventChainContract('eventstoredb real server', realServer);

/** Collects events of one stream from a subscription in the background. */
function collectStream(sub: AsyncIterable<RecordedEvent>, stream: string) {
  const seen: RecordedEvent[] = [];
  const done = (async () => {
    for await (const event of sub) if (event.streamName === stream) seen.push(event);
  })();
  return { seen, done };
}

const withStandInStore = (
  title: string,
  body: (store: EventStore, t: import('ava').ExecutionContext) => Promise<void>,
) =>
  test.serial(`[eventstoredb stand-in] ${title}`, async (t) => {
    const store = openStandInStore();
    try {
      await body(store, t);
    } finally {
      await store.close();
    }
  });

for (const cleanly of [false, true]) {
  withStandInStore(
    `a subscription dropped by the server (${cleanly ? 'silently' : 'with an error'}) resubscribes from its last position`,
    async (store, t) => {
      const stream = `drop-${randomUUID()}`;
      const sub = store.subscribeToAll({ after: await store.headPosition() });
      const { seen, done } = collectStream(sub, stream);
      await store.append(stream, [sampleEvent('A'), sampleEvent('B')]);
      await waitFor(() => seen.length === 2, { message: 'events before the drop' });

      standIn.dropSubscriptions({ cleanly });
      await store.append(stream, [sampleEvent('C')]);
      await waitFor(() => standIn.openSubscriptions() === 1, { message: 'the subscription to come back' });
      await store.append(stream, [sampleEvent('D')]);
      await waitFor(() => seen.length >= 4, { message: 'events after the drop' });

      await sub.close();
      await done;
      t.deepEqual(
        seen.map((e) => e.type),
        ['A', 'B', 'C', 'D'],
        'no gap and no duplicate across the drop',
      );
    },
  );
}

withStandInStore(
  "stream prefixes are the server's filter, and a filtered subscription resumes after a drop with no gap or duplicate",
  async (store, t) => {
    // Given a subscription to the streams starting with one prefix
    const wanted = `wanted-${randomUUID()}`;
    const other = `other-${randomUUID()}`;
    const sub = store.subscribeToAll({ after: await store.headPosition(), streamPrefixes: [wanted] });
    const seen: RecordedEvent[] = [];
    const done = (async () => {
      for await (const event of sub) seen.push(event);
    })();
    await waitFor(() => standIn.openSubscriptions() === 1, { message: 'the subscription to open' });
    t.deepEqual(standIn.subscriptionStreamPrefixes(), [[wanted]], 'the server filters');
    // When matching and other events are written around a drop
    await store.append(`${wanted}-1`, [sampleEvent('A')]);
    await store.append(other, [sampleEvent('X')]);
    await store.append(`${wanted}-1`, [sampleEvent('B')]);
    await waitFor(() => seen.length === 2, { message: 'events before the drop' });
    standIn.dropSubscriptions();
    await store.append(other, [sampleEvent('Y')]);
    await store.append(`${wanted}-1`, [sampleEvent('C')]);
    await waitFor(() => standIn.openSubscriptions() === 1, { message: 'the subscription to come back' });
    await store.append(other, [sampleEvent('Z')]);
    await store.append(`${wanted}-1`, [sampleEvent('D')]);
    await waitFor(() => seen.length >= 4, { message: 'events after the drop' });
    await sub.close();
    await done;
    // Then only the matching events arrived, each once, in order
    t.deepEqual(
      seen.map((e) => [e.streamName, e.type]),
      ['A', 'B', 'C', 'D'].map((type) => [`${wanted}-1`, type]),
    );
  },
);

withStandInStore('closing the store ends its subscriptions', async (store, t) => {
  const sub = store.subscribeToAll({ after: await store.headPosition() });
  const done = (async () => {
    for await (const _ of sub) t.fail('no events were written');
    return 'ended';
  })();
  await waitFor(() => standIn.openSubscriptions() > 0, { message: 'the subscription to open' });
  await store.close();
  t.is(await done, 'ended');
});

withStandInStore(
  'stream metadata events stay out of readAll, subscriptions and the head position',
  async (store, t) => {
    const stream = `meta-${randomUUID()}`;
    const before = await store.headPosition();
    await store.append(stream, [sampleEvent('A')]);
    const head = await store.headPosition();
    await store.setStreamRetention(stream, { maxCount: 10 });
    t.is(await store.headPosition(), head, 'the $metadata event is not the head');
    t.deepEqual(
      (await store.readAll({ after: before })).map((e) => e.type),
      ['A'],
    );
    t.deepEqual(await store.readAll({ after: head }), []);

    const sub = store.subscribeToAll({ after: before });
    const everything: RecordedEvent[] = [];
    const done = (async () => {
      for await (const event of sub) everything.push(event);
    })();
    await store.append(stream, [sampleEvent('B')]);
    await waitFor(() => everything.some((e) => e.type === 'B' && e.streamName === stream), {
      message: 'the event after the metadata',
    });
    await sub.close();
    await done;
    t.deepEqual(
      everything.map((e) => e.type),
      ['A', 'B'],
    );
  },
);

withStandInStore('readAll and headPosition page past long runs of system events', async (store, t) => {
  const before = await store.headPosition();
  const stream = `many-${randomUUID()}`;
  // More system events in a row than one page of either read (stream metadata events here).
  const systemEvents = () => Array.from({ length: 300 }, () => sampleEvent('$metadata'));
  await store.append(stream, [sampleEvent('First')]);
  await store.append(`$$${stream}`, systemEvents());
  const last = await store.append(stream, [sampleEvent('Last')]);
  await store.append(`$$${stream}`, systemEvents());
  t.deepEqual(
    (await store.readAll({ after: before, maxCount: 2 })).map((e) => e.type),
    ['First', 'Last'],
  );
  const first = (await store.readStream(stream))[0]!;
  t.deepEqual(
    (await store.readAll({ after: first.position, maxCount: 1 })).map((e) => e.type),
    ['Last'],
  );
  t.deepEqual(await store.readAll({ after: last.position }), []);
  t.is(await store.headPosition(), last.position);
});

withStandInStore(
  'retention replaces the limits it sets and keeps the rest of the stream metadata',
  async (store, t) => {
    const stream = `keep-${randomUUID()}`;
    // Soft deletion is metadata too ($tb, truncate before): changing retention must not undo it.
    await store.append(`$$${stream}`, [{ ...sampleEvent('$metadata', { $tb: 2 }) }]);
    await store.append(
      stream,
      ['A', 'B', 'C', 'D'].map((type) => sampleEvent(type)),
    );
    await store.setStreamRetention(stream, { maxAgeSeconds: 3600 });
    await store.setStreamRetention(stream, { maxCount: 1 });
    t.deepEqual(
      (await store.readStream(stream)).map((e) => e.type),
      ['D'],
    );
    await store.setStreamRetention(stream, {});
    t.deepEqual(
      (await store.readStream(stream)).map((e) => e.type),
      ['C', 'D'],
    );
  },
);

test.serial('retention by age: events older than $maxAge disappear from stream reads', async (t) => {
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const ageingStandIn = await startEventStoreStandIn({ now: () => clock });
  const store = createEventStoreDbStore(ageingStandIn.connectionString);
  try {
    await store.setStreamRetention('ruleEvaluations-1', { maxAgeSeconds: 60 });
    await store.append('ruleEvaluations-1', [sampleEvent('Old')]);
    clock += 30_000;
    await store.append('ruleEvaluations-1', [sampleEvent('Middle')]);
    clock += 45_000;
    t.deepEqual(
      (await store.readStream('ruleEvaluations-1')).map((e) => e.type),
      ['Middle'],
    );
  } finally {
    await store.close();
    await ageingStandIn.stop();
  }
});

test('an unreachable server: ping, reads and appends fail with EventStoreUnavailableError', async (t) => {
  const gone = await startEventStoreStandIn();
  await gone.stop();
  const store = createEventStoreDbStore(gone.connectionString);
  try {
    await t.throwsAsync(store.ping(), { instanceOf: EventStoreUnavailableError });
    await t.throwsAsync(store.readStream('any-stream'), { instanceOf: EventStoreUnavailableError });
    await t.throwsAsync(store.append('any-stream', [sampleEvent('A')]), { instanceOf: EventStoreUnavailableError });
  } finally {
    await store.close();
  }
});

test('a server that accepts connections but never answers: ping gives up at the read timeout', async (t) => {
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => sockets.add(socket)).listen(0, '127.0.0.1');
  await new Promise((resolve) => silent.once('listening', resolve));
  const { port } = silent.address() as AddressInfo;
  const store = createEventStoreDbStore(`esdb://127.0.0.1:${port}?tls=false`, { readTimeoutMs: 200 });
  try {
    await t.throwsAsync(store.ping(), { instanceOf: EventStoreUnavailableError });
  } finally {
    await store.close();
    for (const socket of sockets) socket.destroy();
    silent.close();
  }
});

test.serial('a kurrentdb:// connection string reaches the same server', async (t) => {
  const store = createEventStoreDbStore(standIn.connectionString.replace(/^esdb:/, 'kurrentdb:'));
  try {
    await t.notThrowsAsync(store.ping());
  } finally {
    await store.close();
  }
});
