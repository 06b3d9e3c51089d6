/**
 * The event store contract: one suite, run against every reachable adapter
 * (test/eventstore-*.test.ts). Stream names are random so the suite can run against a real,
 * persistent server.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import {
  isWrongExpectedRevision,
  type EventStore,
  type EventToAppend,
  type RecordedEvent,
} from '../../src/eventstore/port.js';
import { waitFor } from './wait-for.js';

export interface EventStoreTarget {
  open(): Promise<EventStore>;
  /** Why the target is unavailable; the suite is skipped with this message. */
  skipReason?: string;
}

export const sampleEvent = (type: string, data: Record<string, unknown> = {}): EventToAppend => ({
  type,
  data,
  metadata: {
    tenantId: '00000000-0000-4000-8000-000000000001',
    actor: 'test',
    correlationId: randomUUID(),
    causationId: randomUUID(),
    occurredAt: new Date().toISOString(),
  },
});

const streamName = (category = 'contract') => `${category}-${randomUUID()}`;

async function collect(sub: AsyncIterable<RecordedEvent>, until: (seen: RecordedEvent[]) => boolean) {
  const seen: RecordedEvent[] = [];
  for await (const event of sub) {
    seen.push(event);
    if (until(seen)) break;
  }
  return seen;
}

/** A serial test, titled with the target's label, on a store opened for it and closed after it. */
export const storeTest =
  (label: string, target: EventStoreTarget) =>
  (title: string, body: (store: EventStore, t: import('ava').ExecutionContext) => Promise<void>) =>
    test.serial(`[${label}] ${title}`, async (t) => {
      const store = await target.open();
      try {
        await body(store, t);
      } finally {
        await store.close();
      }
    });

export function eventStoreContract(label: string, target: EventStoreTarget): void {
  if (target.skipReason) {
    test.skip(`[${label}] event store contract skipped: ${target.skipReason}`, () => {});
    return;
  }
  const withStore = storeTest(label, target);

  withStore('append to a new stream and read it back in order with revisions', async (store, t) => {
    const stream = streamName();
    const result = await store.append(stream, [sampleEvent('A', { n: 1 }), sampleEvent('B', { n: 2 })], {
      expectedRevision: 'no_stream',
    });
    t.is(result.nextRevision, 1n);
    const events = await store.readStream(stream);
    t.deepEqual(
      events.map((e) => [e.type, e.revision, e.data.n]),
      [
        ['A', 0n, 1],
        ['B', 1n, 2],
      ],
    );
    t.is(events[1]!.position, result.position);
    t.true(events[1]!.position > events[0]!.position);
    t.is(events[0]!.metadata.actor, 'test');
    t.is(events[0]!.streamName, stream);
  });

  withStore('reading a missing stream gives no events', async (store, t) => {
    t.deepEqual(await store.readStream(streamName()), []);
  });

  withStore('expected revision: no_stream, stream_exists, exact and any', async (store, t) => {
    const stream = streamName();
    await t
      .throwsAsync(store.append(stream, [sampleEvent('X')], { expectedRevision: 'stream_exists' }))
      .then((e) => t.true(isWrongExpectedRevision(e)));
    await t
      .throwsAsync(store.append(stream, [sampleEvent('X')], { expectedRevision: 0n }))
      .then((e) => t.true(isWrongExpectedRevision(e)));
    await store.append(stream, [sampleEvent('A')], { expectedRevision: 'no_stream' });
    const dup = await t.throwsAsync(store.append(stream, [sampleEvent('A')], { expectedRevision: 'no_stream' }));
    t.true(isWrongExpectedRevision(dup));
    await store.append(stream, [sampleEvent('B')], { expectedRevision: 'stream_exists' });
    await store.append(stream, [sampleEvent('C')], { expectedRevision: 1n });
    const stale = await t.throwsAsync(store.append(stream, [sampleEvent('D')], { expectedRevision: 1n }));
    t.true(isWrongExpectedRevision(stale));
    if (isWrongExpectedRevision(stale)) t.is(stale.actual, 2n);
    await store.append(stream, [sampleEvent('E')], { expectedRevision: 'any' });
    t.deepEqual(
      (await store.readStream(stream)).map((e) => e.type),
      ['A', 'B', 'C', 'E'],
    );
  });

  withStore('a rejected append writes nothing', async (store, t) => {
    const stream = streamName();
    await store.append(stream, [sampleEvent('A')]);
    await t.throwsAsync(store.append(stream, [sampleEvent('B'), sampleEvent('C')], { expectedRevision: 5n }));
    t.deepEqual(
      (await store.readStream(stream)).map((e) => e.type),
      ['A'],
    );
  });

  withStore('concurrent appends at the same expected revision: exactly one wins', async (store, t) => {
    const stream = streamName();
    await store.append(stream, [sampleEvent('Start')]);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        store.append(stream, [sampleEvent('Race', { i })], { expectedRevision: 0n }),
      ),
    );
    t.is(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
    t.true(
      outcomes
        .filter((o) => o.status === 'rejected')
        .every((o) => isWrongExpectedRevision((o as PromiseRejectedResult).reason)),
    );
    t.is((await store.readStream(stream)).length, 2);
  });

  withStore('read a stream backwards, from a revision, with a max count', async (store, t) => {
    const stream = streamName();
    await store.append(
      stream,
      ['A', 'B', 'C', 'D'].map((type) => sampleEvent(type)),
    );
    t.deepEqual(
      (await store.readStream(stream, { direction: 'backwards', maxCount: 2 })).map((e) => e.type),
      ['D', 'C'],
    );
    t.deepEqual(
      (await store.readStream(stream, { fromRevision: 2n })).map((e) => e.type),
      ['C', 'D'],
    );
    t.deepEqual(
      (await store.readStream(stream, { fromRevision: 1n, maxCount: 1 })).map((e) => e.type),
      ['B'],
    );
  });

  withStore('the global log is ordered and readable after a position', async (store, t) => {
    const before = await store.headPosition();
    const a = streamName();
    const b = streamName();
    await store.append(a, [sampleEvent('A1')]);
    await store.append(b, [sampleEvent('B1')]);
    await store.append(a, [sampleEvent('A2')]);
    t.true((await store.headPosition()) > before);
    const all = await store.readAll({ after: before, maxCount: 1000 });
    const ours = all.filter((e) => e.streamName === a || e.streamName === b);
    t.deepEqual(
      ours.map((e) => e.type),
      ['A1', 'B1', 'A2'],
    );
    for (let i = 1; i < all.length; i++) t.true(all[i]!.position > all[i - 1]!.position);
    const afterFirst = await store.readAll({ after: ours[0]!.position, maxCount: 2 });
    t.is(afterFirst[0]!.type, 'B1');
    t.false(all.some((e) => e.type.startsWith('$')));
  });

  withStore('subscription catches up, then goes live, with no gap or duplicate at the hand-over', async (store, t) => {
    const start = await store.headPosition();
    const stream = streamName();
    for (let i = 0; i < 5; i++) await store.append(stream, [sampleEvent('Before', { i })]);
    const sub = store.subscribeToAll({ after: start });
    const received = collect(sub, (seen) => seen.filter((e) => e.streamName === stream).length >= 15);
    // Appends that race the hand-over from catch-up to live.
    for (let i = 0; i < 10; i++) await store.append(stream, [sampleEvent('During', { i })]);
    const seen = (await received).filter((e) => e.streamName === stream);
    await sub.close();
    t.deepEqual(
      seen.map((e) => e.revision),
      Array.from({ length: 15 }, (_, i) => BigInt(i)),
    );
  });

  withStore('a subscription started at the head receives only new events', async (store, t) => {
    await store.append(streamName(), [sampleEvent('Old')]);
    const head = await store.headPosition();
    const stream = streamName();
    const sub = store.subscribeToAll({ after: head });
    const received = collect(sub, (seen) => seen.some((e) => e.streamName === stream));
    await store.append(stream, [sampleEvent('New')]);
    const seen = await received;
    await sub.close();
    t.false(seen.some((e) => e.type === 'Old'));
    t.is(seen.at(-1)!.type, 'New');
  });

  withStore(
    'a subscription with stream prefixes delivers only matching events, in order, through catch-up and live',
    async (store, t) => {
      const start = await store.headPosition();
      const tag = randomUUID();
      const [wanted, alsoWanted, other] = [`wanted-${tag}`, `also-${tag}`, `other-${tag}`];
      // Non-matching events before, between and after the matching ones, in both phases.
      await store.append(`${other}-1`, [sampleEvent('Skip')]);
      await store.append(`${wanted}-1`, [sampleEvent('W1')]);
      await store.append(`${other}-2`, [sampleEvent('Skip'), sampleEvent('Skip')]);
      await store.append(`${alsoWanted}-1`, [sampleEvent('W2')]);
      await store.append(`${other}-3`, [sampleEvent('Skip')]);
      const sub = store.subscribeToAll({ after: start, streamPrefixes: [wanted, alsoWanted] });
      const received = collect(sub, (seen) => seen.some((e) => e.type === 'W4'));
      await store.append(`${other}-4`, [sampleEvent('Skip')]);
      await store.append(`${wanted}-2`, [sampleEvent('W3')]);
      await store.append(`${other}-5`, [sampleEvent('Skip'), sampleEvent('Skip')]);
      await store.append(`${alsoWanted}-1`, [sampleEvent('W4')]);
      await store.append(`${other}-6`, [sampleEvent('Skip')]);
      const seen = await received;
      await sub.close();
      t.deepEqual(
        seen.map((e) => e.type),
        ['W1', 'W2', 'W3', 'W4'],
      );
      t.true(seen.every((e) => e.streamName.startsWith(wanted) || e.streamName.startsWith(alsoWanted)));
    },
  );

  withStore('closing a subscription ends its iteration', async (store, t) => {
    const sub = store.subscribeToAll({ after: await store.headPosition() });
    const done = (async () => {
      let n = 0;
      for await (const _ of sub) n++;
      return n;
    })();
    await sub.close();
    t.is(await done, 0);
  });

  withStore('retention by max count keeps only the newest events, revisions continue', async (store, t) => {
    const stream = streamName('ruleEvaluations');
    await store.setStreamRetention(stream, { maxCount: 3 });
    for (let i = 0; i < 6; i++) await store.append(stream, [sampleEvent('Evaluated', { i })]);
    await waitFor(async () => (await store.readStream(stream)).length === 3, { timeoutMs: 5000 });
    const events = await store.readStream(stream);
    t.deepEqual(
      events.map((e) => e.data.i),
      [3, 4, 5],
    );
    t.deepEqual(
      events.map((e) => e.revision),
      [3n, 4n, 5n],
    );
    const next = await store.append(stream, [sampleEvent('Evaluated', { i: 6 })], { expectedRevision: 5n });
    t.is(next.nextRevision, 6n);
  });

  withStore('retention by max age drops events older than the limit', async (store, t) => {
    const stream = streamName('ruleEvaluations');
    await store.append(stream, [sampleEvent('Evaluated', { i: 0 })]);
    await store.setStreamRetention(stream, { maxAgeSeconds: 3600 });
    t.is((await store.readStream(stream)).length, 1, 'a recent event is kept');
    // Every adapter stamps events with the server's clock, so age cannot be faked here; the
    // embedded adapter's own test drives the clock to prove expiry.
  });

  withStore('ping succeeds on a reachable store', async (store, t) => {
    await t.notThrowsAsync(store.ping());
  });
}
