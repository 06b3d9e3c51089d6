import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import type { EventStore, RecordedEvent } from '../src/eventstore/port.js';
import { createLiveEventHub } from '../src/eventstore/live-event-hub.js';
import { sampleEvent } from './support/eventstore-contract.js';
import { waitFor } from './support/wait-for.js';

const logger = pino({ level: 'silent' });
const store = () => openSqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'hub-')), 'e.db') });

test('a hub that could not start tries again for the next listener', async (t) => {
  const real = store();
  let failures = 1;
  const flaky: EventStore = {
    ...real,
    headPosition: async () => (failures-- > 0 ? Promise.reject(new Error('store unreachable')) : real.headPosition()),
  };
  const hub = createLiveEventHub(flaky, logger);
  await t.throwsAsync(
    hub.listen(() => {}),
    { message: 'store unreachable' },
  );
  const seen: RecordedEvent[] = [];
  await hub.listen((event) => seen.push(event));
  await real.append('s-1', [sampleEvent('A')]);
  await waitFor(() => seen.length === 1);
  t.is(seen[0]!.type, 'A');
  await hub.close();
  await real.close();
});

test('when the subscription ends, listeners are told and the next listener starts a new one', async (t) => {
  const real = store();
  const opened: ReturnType<EventStore['subscribeToAll']>[] = [];
  const tracking: EventStore = {
    ...real,
    subscribeToAll: (options) => {
      const sub = real.subscribeToAll(options);
      opened.push(sub);
      return sub;
    },
  };
  const hub = createLiveEventHub(tracking, logger);
  let ended = 0;
  await hub.listen(
    () => {},
    () => ended++,
  );
  // End the shared subscription from underneath, as a dropped connection would.
  await opened[0]!.close();
  await waitFor(() => ended === 1, { message: 'listeners told of the end' });
  t.is(hub.listenerCount(), 0);
  const seen: RecordedEvent[] = [];
  await hub.listen((event) => seen.push(event));
  t.is(opened.length, 2, 'a new subscription');
  await real.append('s-2', [sampleEvent('B')]);
  await waitFor(() => seen.length === 1, { message: 'live events flow again' });
  await hub.close();
  await real.close();
});

test('closing the hub ends every listener, so SSE responses end and a shutdown is not held up', async (t) => {
  const real = store();
  const hub = createLiveEventHub(real, logger);
  let ended = 0;
  await hub.listen(
    () => {},
    () => ended++,
  );
  await hub.listen(
    () => {},
    () => ended++,
  );
  await hub.close();
  t.is(ended, 2);
  t.is(hub.listenerCount(), 0);
  await real.close();
});
