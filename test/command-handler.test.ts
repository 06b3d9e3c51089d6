import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channelDecider } from '../commands/channels.js';
import { channelStream } from '../src/events/channel.js';
import { handleCommand } from '../src/commanding/command-handler.js';
import { jitteredBackoff } from '../src/commanding/conflict-backoff.js';
import { DomainRejection } from '../src/commanding/domain-rejection.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';

const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const envelope = { tenantId: '00000000-0000-4000-8000-000000000001', actor: 'a', correlationId: 'c', causationId: 'c' };
const config = { recipients: ['a@example.com'], subject_template: 's' };

function setup() {
  const eventStore = openSqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'ch-')), 'e.db') });
  return {
    eventStore,
    deps: { eventStore, now: () => new Date('2026-01-01T00:00:00Z'), waitForProjections: async () => true },
  };
}

test('a create that skips reading its new stream still cannot overwrite one that exists', async (t) => {
  const { eventStore, deps } = setup();
  const create = (name: string) =>
    handleCommand(deps, channelDecider, {
      stream: channelStream(id),
      resourceName: 'channel',
      envelope,
      newStream: true,
      command: { kind: 'CreateChannel', channelId: id, name, type: 'email', config },
    });
  const first = await create('first');
  t.is(first.revision, 0n);
  const error = await t.throwsAsync(create('second'), { instanceOf: DomainRejection });
  t.is(error?.kind, 'conflict');
  const events = await eventStore.readStream(channelStream(id));
  t.deepEqual(
    events.map((e) => e.data.name),
    ['first'],
  );
  await eventStore.close();
});

test("another tenant's stream is not found, and a stale expected revision is a conflict", async (t) => {
  const { eventStore, deps } = setup();
  await handleCommand(deps, channelDecider, {
    stream: channelStream(id),
    resourceName: 'channel',
    envelope,
    command: { kind: 'CreateChannel', channelId: id, name: 'x', type: 'email', config },
  });
  const otherTenant = { ...envelope, tenantId: '00000000-0000-4000-8000-000000000002' };
  const foreign = await t.throwsAsync(
    handleCommand(deps, channelDecider, {
      stream: channelStream(id),
      resourceName: 'channel',
      envelope: otherTenant,
      command: { kind: 'DeleteChannel', channelId: id },
    }),
    { instanceOf: DomainRejection },
  );
  t.is(foreign?.kind, 'not_found');
  const stale = await t.throwsAsync(
    handleCommand(deps, channelDecider, {
      stream: channelStream(id),
      resourceName: 'channel',
      envelope,
      expectedRevision: 5n,
      command: { kind: 'DeleteChannel', channelId: id },
    }),
    { instanceOf: DomainRejection },
  );
  t.is(stale?.kind, 'conflict');
  t.is((await eventStore.readStream(channelStream(id))).length, 1);
  await eventStore.close();
});

/** An event store whose first append finds that another writer got to the stream just before it. */
function racedBy(eventStore: ReturnType<typeof openSqliteEventStore>, otherWriter: () => Promise<unknown>) {
  let raced = false;
  return new Proxy(eventStore, {
    get(target, key, receiver) {
      if (key !== 'append') return Reflect.get(target, key, receiver);
      return async (...args: Parameters<typeof target.append>) => {
        if (!raced) {
          raced = true;
          await otherWriter();
        }
        return target.append(...args);
      };
    },
  });
}

test('a command without If-Match that loses a race re-reads, re-decides on the fresh state and lands', async (t) => {
  const { eventStore, deps } = setup();
  const command = (name: string) => ({
    kind: 'UpdateChannel' as const,
    channelId: id,
    name,
    type: 'email' as const,
    config,
  });
  await handleCommand(deps, channelDecider, {
    stream: channelStream(id),
    resourceName: 'channel',
    envelope,
    command: { kind: 'CreateChannel', channelId: id, name: 'x', type: 'email', config },
  });
  // Given another writer (an escalation stage, say) appends to the stream between our read and our append
  const raced = racedBy(eventStore, () =>
    handleCommand(deps, channelDecider, {
      stream: channelStream(id),
      resourceName: 'channel',
      envelope,
      command: command('theirs'),
    }),
  );
  // When our command arrives without If-Match
  const outcome = await handleCommand({ ...deps, eventStore: raced }, channelDecider, {
    stream: channelStream(id),
    resourceName: 'channel',
    envelope,
    command: command('ours'),
  });
  // Then it is decided again on the fresh stream and appended after theirs
  t.is(outcome.revision, 2n);
  t.deepEqual(
    (await eventStore.readStream(channelStream(id))).map((e) => e.data.name),
    ['x', 'theirs', 'ours'],
  );
  await eventStore.close();
});

test('a command with If-Match that loses a race is a conflict and appends nothing', async (t) => {
  const { eventStore, deps } = setup();
  await handleCommand(deps, channelDecider, {
    stream: channelStream(id),
    resourceName: 'channel',
    envelope,
    command: { kind: 'CreateChannel', channelId: id, name: 'x', type: 'email', config },
  });
  const update = (name: string) => ({
    kind: 'UpdateChannel' as const,
    channelId: id,
    name,
    type: 'email' as const,
    config,
  });
  const raced = racedBy(eventStore, () =>
    handleCommand(deps, channelDecider, {
      stream: channelStream(id),
      resourceName: 'channel',
      envelope,
      command: update('theirs'),
    }),
  );
  const error = await t.throwsAsync(
    handleCommand({ ...deps, eventStore: raced }, channelDecider, {
      stream: channelStream(id),
      resourceName: 'channel',
      envelope,
      expectedRevision: 0n,
      command: update('ours'),
    }),
    { instanceOf: DomainRejection },
  );
  t.is(error?.kind, 'conflict');
  t.deepEqual(
    (await eventStore.readStream(channelStream(id))).map((e) => e.data.name),
    ['x', 'theirs'],
  );
  await eventStore.close();
});

const testSent = (n: number) => ({
  kind: 'RecordChannelTest' as const,
  channelId: id,
  result: { ok: true, target: `try ${n}`, statusCode: 204, latencyMs: n, responseExcerpt: null, error: null },
});

test('eight commands without If-Match on one stream at once all land, each once, waiting the backoff between tries', async (t) => {
  const { eventStore, deps } = setup();
  await handleCommand(deps, channelDecider, {
    stream: channelStream(id),
    resourceName: 'channel',
    envelope,
    command: { kind: 'CreateChannel', channelId: id, name: 'x', type: 'email', config },
  });
  // A backoff that waits no real time, and records which retry it was asked to wait for.
  const waits: number[] = [];
  const conflictBackoff = async (attempt: number) => {
    waits.push(attempt);
  };
  const outcomes = await Promise.all(
    Array.from({ length: 8 }, (_, n) =>
      handleCommand({ ...deps, conflictBackoff }, channelDecider, {
        stream: channelStream(id),
        resourceName: 'channel',
        envelope,
        command: testSent(n),
      }),
    ),
  );
  t.deepEqual(outcomes.map((o) => o.revision).sort(), [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n]);
  const recorded = (await eventStore.readStream(channelStream(id)))
    .filter((e) => e.type === 'ChannelTestSent')
    .map((e) => e.data.target);
  t.deepEqual(
    recorded.sort(),
    Array.from({ length: 8 }, (_, n) => `try ${n}`),
  );
  t.true(waits.length > 0, 'they did collide');
  t.true(Math.max(...waits) <= 6, 'eight writers: the last one lands by its seventh retry at most');
  await eventStore.close();
});

/** An event store whose every append finds that another writer got to the stream just before it. */
function alwaysRaced(eventStore: ReturnType<typeof openSqliteEventStore>) {
  return new Proxy(eventStore, {
    get(target, key, receiver) {
      if (key !== 'append') return Reflect.get(target, key, receiver);
      return async (...[stream, events, options]: Parameters<typeof target.append>) => {
        await target.append(stream, [{ ...events[0]!, data: { ...events[0]!.data, target: 'theirs' } }]);
        return target.append(stream, events, options);
      };
    },
  });
}

test('an explicit retry count is bounded: four tries, three waits, then a 409 (the caller asked for a count); with If-Match no retry and no wait', async (t) => {
  const { eventStore, deps } = setup();
  await handleCommand(deps, channelDecider, {
    stream: channelStream(id),
    resourceName: 'channel',
    envelope,
    command: { kind: 'CreateChannel', channelId: id, name: 'x', type: 'email', config },
  });
  const waits: number[] = [];
  const raced = {
    ...deps,
    eventStore: alwaysRaced(eventStore),
    conflictBackoff: async (attempt: number) => {
      waits.push(attempt);
    },
  };
  const error = await t.throwsAsync(
    handleCommand(raced, channelDecider, {
      stream: channelStream(id),
      resourceName: 'channel',
      envelope,
      command: testSent(1),
      retriesOnConflict: 3,
    }),
    { instanceOf: DomainRejection },
  );
  t.is(error?.kind, 'conflict');
  t.deepEqual(waits, [0, 1, 2]);
  t.false(
    (await eventStore.readStream(channelStream(id))).some((e) => e.data.target === 'try 1'),
    'ours never landed',
  );

  waits.length = 0;
  const revision = (await eventStore.readStream(channelStream(id))).at(-1)!.revision;
  const stale = await t.throwsAsync(
    handleCommand(raced, channelDecider, {
      stream: channelStream(id),
      resourceName: 'channel',
      envelope,
      expectedRevision: revision,
      command: testSent(2),
    }),
    { instanceOf: DomainRejection },
  );
  t.is(stale?.kind, 'conflict');
  t.deepEqual(waits, []);
  await eventStore.close();
});

test('the backoff waits a random part of a cap that doubles per retry, up to its maximum', async (t) => {
  const slept: number[] = [];
  const sleep = async (ms: number) => {
    slept.push(ms);
  };
  const highest = jitteredBackoff({ baseMs: 2, maxMs: 50, random: () => 0.999, sleep });
  for (let attempt = 0; attempt < 8; attempt++) await highest(attempt);
  t.deepEqual(slept, [1, 3, 7, 15, 31, 49, 49, 49]);
  slept.length = 0;
  const lowest = jitteredBackoff({ random: () => 0, sleep });
  await lowest(5);
  t.deepEqual(slept, [0]);
});
