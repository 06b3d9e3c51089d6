import test from 'ava';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encryptingEventStore } from '../src/eventstore/encrypting.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { channelEventSecrets } from '../src/events/channel-secrets.js';
import { secretBox } from '../src/secrets/secret-box.js';

const metadata = {
  tenantId: randomUUID(),
  actor: 'u',
  correlationId: 'c',
  causationId: 'c',
  occurredAt: '2026-01-01T00:00:00.000Z',
};
const hook = {
  url: 'https://hooks.example.com/in',
  method: 'POST',
  headers: { Authorization: 'Bearer token-123456', 'X-Team': 'dp' },
};

test('secret fields are sealed in the log and plain on every read and subscription delivery; legacy plain values read as they are', async (t) => {
  const raw = openSqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'ww-enc-')), 'e.db') });
  const store = encryptingEventStore(raw, secretBox(randomBytes(32)), channelEventSecrets);
  const [sealedId, legacyId] = [randomUUID(), randomUUID()];
  await store.append(`channel-${sealedId}`, [
    { type: 'ChannelCreated', data: { channelId: sealedId, name: 'h', type: 'webhook', config: hook }, metadata },
  ]);
  await raw.append(`channel-${legacyId}`, [
    { type: 'ChannelCreated', data: { channelId: legacyId, name: 'old', type: 'webhook', config: hook }, metadata },
  ]);
  await store.append(`channel-${sealedId}`, [{ type: 'ChannelDeleted', data: { channelId: sealedId }, metadata }]);

  const [rawCreated] = await raw.readStream(`channel-${sealedId}`);
  const rawHeaders = (rawCreated!.data.config as typeof hook).headers;
  t.regex(rawHeaders.Authorization, /^enc:v1:/);
  t.regex(rawHeaders['X-Team'], /^enc:v1:/, 'every header value is a secret');
  t.is((rawCreated!.data.config as typeof hook).url, hook.url, 'the rest stays readable');

  t.deepEqual((await store.readStream(`channel-${sealedId}`))[0]!.data.config, hook);
  t.deepEqual(
    (await store.readAll()).map((event) => event.data.config ?? null),
    [hook, hook, null],
  );
  const delivered = [];
  for await (const event of store.subscribeToAll()) {
    delivered.push(event.data.config ?? null);
    if (delivered.length === 3) break;
  }
  t.deepEqual(delivered, [hook, hook, null]);
  await store.close();
});
