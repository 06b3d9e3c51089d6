/**
 * The stream chain's contract (src/eventstore/event-chain.mjs), run against every adapter beside
 * the event store contract: every event appended carries a hash over its stream, revision, type,
 * data, metadata and the previous event's hash, whoever appends and however.
 */
import { randomUUID } from 'node:crypto';
import { chainHash } from '../../src/eventstore/event-chain.mjs';
import { isWrongExpectedRevision, type RecordedEvent } from '../../src/eventstore/port.js';
import { sampleEvent, storeTest, type EventStoreTarget } from './eventstore-contract.js';

/** What an auditor recomputes: the event's own hash from its fields, and its link to the event before. */
export function chainBreaks(events: readonly RecordedEvent[]): string[] {
  return events.flatMap((event, index) => {
    const chain = event.chain;
    if (!chain) return [`revision ${event.revision} has no hash`];
    const breaks: string[] = [];
    const expectedPrevious = index === 0 ? null : (events[index - 1]!.chain?.hash ?? null);
    if (chain.previousHash !== expectedPrevious)
      breaks.push(`revision ${event.revision} links to ${chain.previousHash}, not ${expectedPrevious}`);
    const recomputed = chainHash({
      stream: event.streamName,
      revision: event.revision,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
      previousHash: chain.previousHash,
    });
    if (recomputed !== chain.hash) breaks.push(`revision ${event.revision} hashes to ${recomputed}, not ${chain.hash}`);
    return breaks;
  });
}

export function eventChainContract(label: string, target: EventStoreTarget): void {
  if (target.skipReason) return;
  const withStore = storeTest(label, target);

  withStore(
    'every event is chained to the previous event of its stream, within an append and across appends',
    async (store, t) => {
      const stream = `chain-${randomUUID()}`;
      await store.append(stream, [sampleEvent('A', { b: 2, a: { z: [1, 'é'], y: null } }), sampleEvent('B')], {
        expectedRevision: 'no_stream',
      });
      await store.append(stream, [sampleEvent('C')], { expectedRevision: 1n });
      await store.append(stream, [sampleEvent('D')], { expectedRevision: 'stream_exists' });
      await store.append(stream, [sampleEvent('E')]);
      const events = await store.readStream(stream);
      t.deepEqual(
        events.map((e) => e.type),
        ['A', 'B', 'C', 'D', 'E'],
      );
      t.is(events[0]!.chain?.previousHash, null, "a stream's chain starts with no previous hash");
      t.regex(events[0]!.chain?.hash ?? '', /^[0-9a-f]{64}$/);
      t.deepEqual(chainBreaks(events), []);
      t.is(new Set(events.map((e) => e.chain?.hash)).size, 5);
      // The global log and a stream read agree on every link.
      const all = (await store.readAll({ after: events[0]!.position - 1n, maxCount: 10_000 })).filter(
        (e) => e.streamName === stream,
      );
      t.deepEqual(
        all.map((e) => e.chain),
        events.map((e) => e.chain),
      );
    },
  );

  withStore(
    'a conflicting append adds no link; racing appends without an expectation still form one chain',
    async (store, t) => {
      const stream = `chain-${randomUUID()}`;
      await store.append(stream, [sampleEvent('A')], { expectedRevision: 'no_stream' });
      await store.append(stream, [sampleEvent('B')], { expectedRevision: 0n });
      const stale = await t.throwsAsync(store.append(stream, [sampleEvent('Stale')], { expectedRevision: 0n }));
      t.true(isWrongExpectedRevision(stale));
      await Promise.all(Array.from({ length: 6 }, (_, i) => store.append(stream, [sampleEvent('Any', { i })])));
      const events = await store.readStream(stream);
      t.is(events.length, 8);
      t.deepEqual(chainBreaks(events), []);
    },
  );

  withStore(
    'the hash covers data and metadata in canonical form: key order does not matter, content does',
    async (store, t) => {
      const [one, two] = [`chain-${randomUUID()}`, `chain-${randomUUID()}`];
      const event = sampleEvent('A', { x: 1, y: 2 });
      const reordered = {
        ...event,
        data: { y: 2, x: 1 },
        metadata: Object.fromEntries(Object.entries(event.metadata).reverse()) as typeof event.metadata,
      };
      await store.append(one, [event]);
      await store.append(two, [reordered]);
      const [first] = await store.readStream(one);
      const [second] = await store.readStream(two);
      t.deepEqual(chainBreaks([first!]), []);
      t.deepEqual(chainBreaks([second!]), []);
      t.is(
        chainHash({
          stream: one,
          revision: 0n,
          type: 'A',
          data: second!.data,
          metadata: second!.metadata,
          previousHash: null,
        }),
        first!.chain?.hash ?? '',
      );
      t.not(
        chainHash({
          stream: one,
          revision: 0n,
          type: 'A',
          data: { x: 1, y: 3 },
          metadata: first!.metadata,
          previousHash: null,
        }),
        first!.chain?.hash,
      );
      t.not(
        chainHash({
          stream: one,
          revision: 1n,
          type: 'A',
          data: first!.data,
          metadata: first!.metadata,
          previousHash: null,
        }),
        first!.chain?.hash,
      );
    },
  );

  withStore(
    'the log records once where its chain began, at or before its first hashed event; retention is told per stream',
    async (store, t) => {
      const stream = `chain-${randomUUID()}`;
      const { position } = await store.append(stream, [sampleEvent('A')]);
      const start = await store.chainStart();
      t.not(start, null, 'recorded by the first append at the latest');
      t.true(start! <= position, 'the appended event is inside the chain');
      await store.append(stream, [sampleEvent('B')]);
      t.is(await store.chainStart(), start, 'written once, never moved');
      t.false(await store.hasRetention(stream));
      await store.setStreamRetention(stream, { maxCount: 5 });
      t.true(await store.hasRetention(stream));
    },
  );
}
