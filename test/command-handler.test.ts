import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channelDecider } from '../commands/channels.js';
import { channelStream } from '../src/events/channel.js';
import { handleCommand } from '../src/commanding/command-handler.js';
import { DomainRejection } from '../src/commanding/domain-rejection.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';

const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const envelope = { tenantId: '00000000-0000-4000-8000-000000000001', actor: 'a', correlationId: 'c', causationId: 'c' };
const config = { recipients: ['a@example.com'], subject_template: 's' };

function setup() {
  const eventStore = openSqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'ch-')), 'e.db') });
  return { eventStore, deps: { eventStore, now: () => new Date('2026-01-01T00:00:00Z'), waitForProjections: async () => true } };
}

test('a create that skips reading its new stream still cannot overwrite one that exists', async (t) => {
  const { eventStore, deps } = setup();
  const create = (name: string) =>
    handleCommand(deps, channelDecider, {
      stream: channelStream(id), resourceName: 'channel', envelope, newStream: true,
      command: { kind: 'CreateChannel', channelId: id, name, type: 'email', config },
    });
  const first = await create('first');
  t.is(first.revision, 0n);
  const error = await t.throwsAsync(create('second'), { instanceOf: DomainRejection });
  t.is(error?.kind, 'conflict');
  const events = await eventStore.readStream(channelStream(id));
  t.deepEqual(events.map((e) => e.data.name), ['first']);
  await eventStore.close();
});

test("another tenant's stream is not found, and a stale expected revision is a conflict", async (t) => {
  const { eventStore, deps } = setup();
  await handleCommand(deps, channelDecider, { stream: channelStream(id), resourceName: 'channel', envelope, command: { kind: 'CreateChannel', channelId: id, name: 'x', type: 'email', config } });
  const otherTenant = { ...envelope, tenantId: '00000000-0000-4000-8000-000000000002' };
  const foreign = await t.throwsAsync(handleCommand(deps, channelDecider, { stream: channelStream(id), resourceName: 'channel', envelope: otherTenant, command: { kind: 'DeleteChannel', channelId: id } }), { instanceOf: DomainRejection });
  t.is(foreign?.kind, 'not_found');
  const stale = await t.throwsAsync(handleCommand(deps, channelDecider, { stream: channelStream(id), resourceName: 'channel', envelope, expectedRevision: 5n, command: { kind: 'DeleteChannel', channelId: id } }), { instanceOf: DomainRejection });
  t.is(stale?.kind, 'conflict');
  t.is((await eventStore.readStream(channelStream(id))).length, 1);
  await eventStore.close();
});
