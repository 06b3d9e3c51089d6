/**
 * The embedded stores' projections on the event log's writer thread
 * (src/composition/projection-thread.ts, projection-host.ts): the same runner contract as the
 * in-process one, with the projections applied on another thread. What must hold across the thread
 * boundary: read-your-writes, the IAM change stamps moving before the waiters are
 * released, sealed channel secrets (the thread needs the same key), restart from the checkpoint,
 * and rebuilds.
 */
import test, { type ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { CHANNELS, type ChannelDoc } from '../projections/channels.js';
import { GROUPS } from '../projections/groups.js';
import { iamChangeStamps } from '../src/auth/iam-change-stamps.js';
import { projectionThread } from '../src/composition/projection-thread.js';
import { iamProjections, projectionsOf } from '../src/composition/read-models.js';
import { channelEventSecrets } from '../src/events/channel-secrets.js';
import { encryptingEventStore } from '../src/eventstore/encrypting.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { secretBox } from '../src/secrets/secret-box.js';
import { sampleEvent } from './support/eventstore-contract.js';

const tenant = '00000000-0000-4000-8000-000000000001';
const otherTenant = '00000000-0000-4000-8000-000000000002';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const webhookChannel = (n: number) =>
  sampleEvent('ChannelCreated', {
    channelId: uuid(n),
    name: `c${n}`,
    type: 'webhook',
    config: { url: `https://hooks.example.com/${n}`, headers: { authorization: 'Bearer s3cret' } },
  });
const groupCreated = (n: number) =>
  sampleEvent('GroupCreated', { groupId: uuid(n), name: `g${n}`, description: '', permissions: {} });

/** The stores and a runner factory; the test's teardown stops every runner it made (stop is idempotent), then closes the stores. */
function setup(t: ExecutionContext) {
  const dir = mkdtempSync(join(tmpdir(), 'proj-thread-'));
  const key = randomBytes(32);
  const secrets = secretBox(key);
  const files = { eventsFile: join(dir, 'events.db'), readModelsFile: join(dir, 'read-models.db') };
  const eventStore = encryptingEventStore(
    openSqliteEventStore({ filename: files.eventsFile }),
    secrets,
    channelEventSecrets,
  );
  const readStore = openSqliteReadStore(files.readModelsFile);
  const stamps = iamChangeStamps();
  const runners: ReturnType<typeof projectionThread>[] = [];
  t.teardown(async () => {
    for (const runner of runners) await runner.stop();
    await eventStore.close();
    await readStore.close();
  });
  const newRunner = () => {
    const runner = projectionThread({
      ...files,
      secrets: { key, previousKeys: [] },
      secretsKeyFile: join(dir, 'secrets.key'),
      projections: projectionsOf(secrets),
      iamProjections: new Set(iamProjections.map((p) => p.name)),
      stamps,
      logLevel: 'silent',
      logger: pino({ level: 'silent' }),
    });
    runners.push(runner);
    return runner;
  };
  return { eventStore, readStore, stamps, secrets, newRunner };
}

test('a GET after waitFor sees the event: the writer thread applied it and reported its position', async (t) => {
  const { eventStore, readStore, secrets, newRunner } = setup(t);
  const runner = newRunner();
  await runner.start();
  const { position } = await eventStore.append(`channel-${uuid(1)}`, [webhookChannel(1)]);
  t.true(await runner.waitFor(position, 10_000));
  const doc = await readStore.get<ChannelDoc>(CHANNELS, uuid(1));
  t.is(doc?.name, 'c1');
  // The writer thread sealed the header with the platform's key: this side can open it, and it is not stored plain.
  t.false(JSON.stringify(doc).includes('s3cret'));
  t.is(secrets.open((doc!.config as { headers: { authorization: string } }).headers.authorization), 'Bearer s3cret');
  t.true(runner.status().every((s) => s.position === position && s.failing === undefined));
});

test("an IAM commit moves its tenant's stamp before the waiters are released; other tenants keep theirs", async (t) => {
  const { eventStore, readStore, stamps, newRunner } = setup(t);
  const runner = newRunner();
  await runner.start();
  const before = { ours: stamps.stampOf(tenant), theirs: stamps.stampOf(otherTenant) };
  const { position } = await eventStore.append(`group-${uuid(7)}`, [groupCreated(7)]);
  t.true(await runner.waitFor(position, 10_000));
  t.not(stamps.stampOf(tenant), before.ours);
  t.is(stamps.stampOf(otherTenant), before.theirs);
  t.truthy(await readStore.get(GROUPS, uuid(7)));
  // A channel is not an IAM read model: no stamp moves.
  const afterGroup = stamps.stampOf(tenant);
  const channel = await eventStore.append(`channel-${uuid(2)}`, [webhookChannel(2)]);
  t.true(await runner.waitFor(channel.position, 10_000));
  t.is(stamps.stampOf(tenant), afterGroup);
});

test('a new host continues from the checkpoints, and a rebuild through it ends in the same read model', async (t) => {
  const { eventStore, readStore, newRunner } = setup(t);
  const first = newRunner();
  await first.start();
  const one = await eventStore.append(`channel-${uuid(1)}`, [webhookChannel(1)]);
  t.true(await first.waitFor(one.position, 10_000));
  await first.stop();

  const two = await eventStore.append(`channel-${uuid(2)}`, [webhookChannel(2)]);
  const second = newRunner();
  await second.start();
  t.true(await second.waitFor(two.position, 10_000));
  const listed = async () =>
    (await readStore.find<ChannelDoc>(CHANNELS, { tenantId: tenant }, { sort: [['id', 'asc']] })).map((c) => c.id);
  t.deepEqual(await listed(), [uuid(1), uuid(2)]);

  const progress: bigint[] = [];
  t.is(await second.rebuild('channels', (p) => progress.push(p.position)), two.position);
  t.true(progress.length > 0);
  t.deepEqual(await listed(), [uuid(1), uuid(2)]);
  await t.throwsAsync(second.rebuild('no-such-projection'), { message: /unknown projection/ });
});
