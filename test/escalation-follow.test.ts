/** The escalation manager's log follower reads only the incident streams: the store skips the rest. */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INCIDENT_STREAM_PREFIX, incidentStream } from '../src/events/incident.js';
import type { EventStore, SubscribeOptions } from '../src/eventstore/port.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { sampleEvent } from './support/eventstore-contract.js';
import { createHarness } from './support/escalation-harness.js';
import { waitFor } from './support/wait-for.js';

test("the follower subscribes to the incident streams only, so other streams' events never reach it", async (t) => {
  // Given a store that records what its subscribers ask for and receive
  const store = openSqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'ww-esc-follow-')), 'events.db') });
  const asked: SubscribeOptions[] = [];
  const received: string[] = [];
  const tracking: EventStore = {
    ...store,
    subscribeToAll(options = {}) {
      asked.push(options);
      const inner = store.subscribeToAll(options);
      return {
        close: () => inner.close(),
        async *[Symbol.asyncIterator]() {
          for await (const event of inner) {
            received.push(event.streamName);
            yield event;
          }
        },
      };
    },
  };
  const h = createHarness({ stages: [], eventStore: tracking });
  await h.managers[0]!.start();
  // When another stream's event and then an incident's are written
  await store.append(`channel-${randomUUID()}`, [sampleEvent('ChannelCreated')]);
  const id = randomUUID();
  await h.trigger(id);
  await waitFor(() => received.length > 0, { message: 'the incident event to reach the follower' });
  // Then the follower asked for incident streams, and only the incident's events reached it
  t.deepEqual(
    asked.map((options) => options.streamPrefixes),
    [[INCIDENT_STREAM_PREFIX]],
  );
  t.true(
    received.every((stream) => stream === incidentStream(id)),
    received.join(', '),
  );
  await h.close();
});
