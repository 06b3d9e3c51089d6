/**
 * A command without If-Match never fails with 409 because other writers keep landing on its stream
 * (issue 39 §8): it re-reads and retries for a time budget, not a count, and when the budget is spent
 * it is a StreamBusyError (503 with Retry-After), never a conflict. With If-Match nothing changes.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channelDecider } from '../commands/channels.js';
import { handleCommand } from '../src/commanding/command-handler.js';
import { DomainRejection } from '../src/commanding/domain-rejection.js';
import { StreamBusyError } from '../src/commanding/stream-busy.js';
import { channelStream } from '../src/events/channel.js';
import type { EventStore } from '../src/eventstore/port.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';

const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const envelope = { tenantId: '00000000-0000-4000-8000-000000000001', actor: 'a', correlationId: 'c', causationId: 'c' };
const config = { recipients: ['a@example.com'], subject_template: 's' };

const testSent = (n: number) => ({
  kind: 'RecordChannelTest' as const,
  channelId: id,
  result: { ok: true, target: `try ${n}`, statusCode: 204, latencyMs: n, responseExcerpt: null, error: null },
});

/** Another writer lands on the stream just before each of our first `times` appends (then never again). */
function racedFirst(eventStore: EventStore, times: number) {
  let raced = 0;
  return new Proxy(eventStore, {
    get(target, key, receiver) {
      if (key !== 'append') return Reflect.get(target, key, receiver);
      return async (...[stream, events, options]: Parameters<EventStore['append']>) => {
        if (raced < times) {
          raced++;
          await target.append(stream, [{ ...events[0]!, data: { ...events[0]!.data, target: 'theirs' } }]);
        }
        return target.append(stream, events, options);
      };
    },
  });
}

async function setup(raceTimes: number) {
  const eventStore = openSqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'cc-')), 'e.db') });
  const plain = { eventStore, now: () => new Date('2026-01-01T00:00:00Z'), waitForProjections: async () => true };
  await handleCommand(plain, channelDecider, {
    stream: channelStream(id),
    resourceName: 'channel',
    envelope,
    command: { kind: 'CreateChannel', channelId: id, name: 'x', type: 'email', config },
  });
  const waits: number[] = [];
  const deps = {
    ...plain,
    eventStore: racedFirst(eventStore, raceTimes),
    conflictBackoff: async (attempt: number) => {
      waits.push(attempt);
    },
  };
  return { eventStore, deps, waits };
}

/** Well above the nine retries the fixed count allowed. */
const RACES = 40;

test('a command without If-Match that loses forty races in a row still lands, once', async (t) => {
  const { eventStore, deps, waits } = await setup(RACES);
  // A clock that stands still: the count of races is what is tested here, not the machine's speed.
  const outcome = await handleCommand({ ...deps, monotonicMs: () => 0 }, channelDecider, {
    stream: channelStream(id),
    resourceName: 'channel',
    envelope,
    command: testSent(1),
  });
  t.is(outcome.events.length, 1);
  t.deepEqual(
    waits,
    Array.from({ length: RACES }, (_, n) => n),
  );
  const targets = (await eventStore.readStream(channelStream(id))).map((e) => e.data.target);
  t.is(targets.filter((target) => target === 'try 1').length, 1);
  t.is(targets.filter((target) => target === 'theirs').length, RACES);
  await eventStore.close();
});

test('a spent time budget is a StreamBusyError with a retry-after, not a conflict, and nothing lands', async (t) => {
  const { eventStore, deps, waits } = await setup(1_000);
  // A monotonic clock that moves 1 s per look: a 5 s budget is spent after a few tries.
  let ms = 0;
  const error = await t.throwsAsync(
    handleCommand({ ...deps, monotonicMs: () => (ms += 1_000) }, channelDecider, {
      stream: channelStream(id),
      resourceName: 'channel',
      envelope,
      command: testSent(2),
      conflictBudgetMs: 5_000,
    }),
    { instanceOf: StreamBusyError },
  );
  t.false(error instanceof DomainRejection);
  t.is(error?.retryAfterSeconds, 1);
  t.deepEqual(waits, [0, 1, 2, 3]);
  t.false(
    (await eventStore.readStream(channelStream(id))).some((e) => e.data.target === 'try 2'),
    'ours never landed',
  );
  await eventStore.close();
});

test('with If-Match a lost race is still a conflict at once: no retry, no wait', async (t) => {
  const { eventStore, deps, waits } = await setup(1);
  const error = await t.throwsAsync(
    handleCommand(deps, channelDecider, {
      stream: channelStream(id),
      resourceName: 'channel',
      envelope,
      expectedRevision: 0n,
      command: testSent(3),
    }),
    { instanceOf: DomainRejection },
  );
  t.is(error?.kind, 'conflict');
  t.deepEqual(waits, []);
  await eventStore.close();
});
