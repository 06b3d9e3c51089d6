import test from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { channelsProjection, CHANNELS, type ChannelDoc } from '../projections/channels.js';
import { incidentsProjection, INCIDENTS, type IncidentDoc } from '../projections/incidents.js';
import { publicIncident } from '../src/events/incident.js';
import { secretBox } from '../src/secrets/secret-box.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { readEventData } from '../src/events/catalogue.js';
import { createProjectionRunner } from '../src/projection-runner/runner.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { sampleEvent } from './support/eventstore-contract.js';
import { startTestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const channels = channelsProjection(secretBox(randomBytes(32)));

const tenant = '00000000-0000-4000-8000-000000000001';
const channelId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const created = (n: number, name = `c${n}`) =>
  sampleEvent('ChannelCreated', {
    channelId: channelId(n),
    name,
    type: 'email',
    config: { recipients: ['a@b.co'], subject_template: 's' },
  });

function stores() {
  const dir = mkdtempSync(join(tmpdir(), 'proj-'));
  return {
    eventStore: openSqliteEventStore({ filename: join(dir, 'e.db') }),
    readStore: openSqliteReadStore(join(dir, 'r.db')),
  };
}

const snapshot = async (readStore: ReturnType<typeof openSqliteReadStore>) =>
  readStore.find<ChannelDoc>(CHANNELS, { tenantId: tenant }, { sort: [['id', 'asc']] });

test('applying the same events twice leaves the same read model (idempotence)', async (t) => {
  const { eventStore, readStore } = stores();
  await eventStore.append('channel-1', [created(1)]);
  await eventStore.append('channel-1', [
    sampleEvent('ChannelUpdated', {
      channelId: channelId(1),
      name: 'renamed',
      type: 'email',
      config: { recipients: ['x@y.co'], subject_template: 's' },
    }),
  ]);
  const events = (await eventStore.readAll()).map((e) => ({ ...e, data: readEventData(e.type, e.data) }));
  const apply = (batch: typeof events) =>
    readStore.applyBatch({ projection: 'channels', version: 1 }, batch, (event, writer) =>
      channels.apply(event, writer),
    );
  await apply(events);
  const once = await snapshot(readStore);
  await apply(events);
  await apply([events[0]!]);
  t.deepEqual(await snapshot(readStore), once);
  t.is(once[0]!.name, 'renamed');
});

test('waitFor resolves once every projection has applied the position (read your writes)', async (t) => {
  const { eventStore, readStore } = stores();
  const runner = createProjectionRunner({
    eventStore,
    readStore,
    projections: [channels],
    logger: pino({ level: 'silent' }),
  });
  await runner.start();
  const { position } = await eventStore.append('channel-2', [created(2)]);
  t.true(await runner.waitFor(position, 5000));
  t.truthy(await readStore.get(CHANNELS, channelId(2)), 'visible as soon as waitFor resolves');
  t.false(await runner.waitFor(position + 1000n, 20), 'a position never written times out as false');
  await runner.stop();
});

test('a rebuild from the log ends in the same read model, and the runner continues after it', async (t) => {
  const { eventStore, readStore } = stores();
  const runner = createProjectionRunner({
    eventStore,
    readStore,
    projections: [channels],
    logger: pino({ level: 'silent' }),
  });
  await runner.start();
  for (let n = 1; n <= 30; n++) await eventStore.append(`channel-${n}`, [created(n)]);
  await eventStore.append('channel-3', [sampleEvent('ChannelDeleted', { channelId: channelId(3) })]);
  const { position } = await eventStore.append('channel-4', [
    sampleEvent('ChannelUpdated', {
      channelId: channelId(4),
      name: 'four',
      type: 'email',
      config: { recipients: ['a@b.co'], subject_template: 's' },
    }),
  ]);
  await runner.waitFor(position, 5000);
  const before = await snapshot(readStore);
  const progress: bigint[] = [];
  await runner.rebuild('channels', (p) => progress.push(p.position));
  t.deepEqual(await snapshot(readStore), before);
  t.is(before.length, 29);
  t.true(progress.length > 0);
  const next = await eventStore.append('channel-99', [created(99)]);
  t.true(await runner.waitFor(next.position, 5000));
  t.truthy(await readStore.get(CHANNELS, channelId(99)));
  await runner.stop();
});

test('a projection whose version changed is rebuilt at start', async (t) => {
  const { eventStore, readStore } = stores();
  await eventStore.append('channel-5', [created(5)]);
  await readStore.applyBatch({ projection: 'channels', version: 0 }, [{ position: 1n }], async (_e, w) =>
    w.upsert(CHANNELS, { id: 'stale', tenantId: tenant }),
  );
  const runner = createProjectionRunner({
    eventStore,
    readStore,
    projections: [channels],
    logger: pino({ level: 'silent' }),
  });
  await runner.start();
  await waitFor(async () => (await readStore.get(CHANNELS, channelId(5))) !== null);
  t.is(await readStore.get(CHANNELS, 'stale'), null, 'the old model was replaced');
  t.deepEqual(await readStore.getCheckpoint('channels'), { position: 1n, version: channels.version });
  await runner.stop();
});

test("an acknowledgement or a resolution cancels the incident's escalation in the read model, saying which", async (t) => {
  const { eventStore, readStore } = stores();
  const runner = createProjectionRunner({
    eventStore,
    readStore,
    projections: [incidentsProjection],
    logger: pino({ level: 'silent' }),
  });
  await runner.start();
  const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 11, minute)).toISOString();
  const policyId = '00000000-0000-4000-8000-0000000000aa';
  const escalating = async (n: number) => {
    const incidentId = channelId(100 + n);
    await eventStore.append(`incident-${incidentId}`, [
      sampleEvent('IncidentTriggered', {
        incidentId,
        ruleId: policyId,
        ruleName: 'Queue wait',
        ordinal: n,
        currentValue: 45,
        severity: 'high',
        metric: 'queue_time_seconds',
        condition: 'gt',
        threshold: 30,
        envId: policyId,
        clusterId: null,
        escalationPolicyId: policyId,
        triggeredAt: at(0),
      }),
      sampleEvent('EscalationStarted', {
        incidentId,
        policyId,
        policyName: 'Primary',
        repeatIntervalMinutes: 5,
        startedAt: at(0),
        stages: [
          { stageOrder: 1, delayMinutes: 0, targets: [] },
          { stageOrder: 2, delayMinutes: 10, targets: [] },
        ],
      }),
      sampleEvent('EscalationStageFired', {
        incidentId,
        stageOrder: 1,
        cycle: 0,
        dueAt: at(0),
        firedAt: at(0),
        recipients: [],
      }),
    ]);
    return incidentId;
  };
  const append = (incidentId: string, type: string, data: Record<string, unknown>) =>
    eventStore.append(`incident-${incidentId}`, [sampleEvent(type, { incidentId, ...data })]);
  const escalationOf = async (incidentId: string, position: bigint) => {
    t.true(await runner.waitFor(position, 5000));
    const doc = (await readStore.get<IncidentDoc>(INCIDENTS, incidentId))!;
    return { ...publicIncident(doc).escalation, next_escalation_at: doc.next_escalation_at };
  };

  const acked = await escalating(1);
  t.like(await escalationOf(acked, (await eventStore.readAll()).at(-1)!.position), {
    status: 'running',
    cancel_reason: null,
    next_escalation_at: at(10),
  });
  const ack = await append(acked, 'IncidentAcknowledged', { by: 'alice', at: at(2) });
  t.like(await escalationOf(acked, ack.position), {
    status: 'cancelled',
    cancel_reason: 'acknowledged',
    next_escalation_at: null,
    current_stage: { stage_order: 1 },
  });
  const laterResolved = await append(acked, 'IncidentResolved', {
    by: 'alice',
    at: at(3),
    reason: 'manual',
    note: null,
    value: null,
  });
  t.like(
    await escalationOf(acked, laterResolved.position),
    { status: 'cancelled', cancel_reason: 'acknowledged' },
    'the acknowledgement is what stopped it',
  );

  const resolved = await escalating(2);
  const resolution = await append(resolved, 'IncidentResolved', {
    by: 'system:evaluator',
    at: at(4),
    reason: 'auto',
    note: null,
    value: 12,
  });
  t.like(await escalationOf(resolved, resolution.position), {
    status: 'cancelled',
    cancel_reason: 'resolved',
    next_escalation_at: null,
  });
  await runner.stop();
});

test('over HTTP, a GET right after a 2xx command sees the change', async (t) => {
  const app = await startTestApp();
  const caller = app.newTenant();
  const body = {
    name: 'ryw',
    type: 'chat',
    config: { webhook_url: 'https://chat.example/hook', channel_name: '#alerts' },
  };
  for (let i = 0; i < 20; i++) {
    const created = await app.request('POST', '/notification-channels', { caller, body });
    t.is(created.status, 201);
    t.is(created.headers.get('x-read-model-pending'), null);
    const read = await app.request('GET', `/notification-channels/${created.body.data.id}`, { caller });
    t.is(read.status, 200);
  }
  t.is((await app.request('GET', '/notification-channels?limit=200', { caller })).body.data.length, 20);
  await app.close();
});

test('a projection that fails stalls alone and catches up once the fault clears; others go on', async (t) => {
  const { eventStore, readStore } = stores();
  let failuresLeft = 3;
  const flaky = {
    name: 'flaky',
    version: 1,
    handles: ['ChannelCreated'],
    collections: { flaky: [] },
    async apply(event: { data: Record<string, unknown> }, writer: Parameters<typeof channels.apply>[1]) {
      if (failuresLeft > 0) {
        failuresLeft--;
        throw new Error('downstream hiccup');
      }
      await writer.upsert('flaky', { id: String(event.data.channelId), tenantId: tenant });
    },
  };
  const runner = createProjectionRunner({
    eventStore,
    readStore,
    projections: [channels, flaky],
    logger: pino({ level: 'silent' }),
  });
  await runner.start();
  const { position } = await eventStore.append('channel-7', [created(7)]);
  await waitFor(async () => (await readStore.get(CHANNELS, channelId(7))) !== null, {
    message: 'the healthy projection applied the event',
  });
  t.false(await runner.waitFor(position, 20), 'read-your-writes waits for every projection');
  t.true(runner.status().some((s) => s.name === 'flaky' && s.failing === 'downstream hiccup'));
  await waitFor(async () => (await readStore.get('flaky', channelId(7))) !== null, {
    timeoutMs: 10_000,
    message: 'the flaky projection caught up',
  });
  t.true(await runner.waitFor(position, 1000));
  t.is(runner.status().find((s) => s.name === 'flaky')!.failing, undefined);
  await runner.stop();
});
