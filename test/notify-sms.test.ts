import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGuardedClient } from '../src/gateways/http/guarded-client.js';
import { isE164 } from '../src/contract/phone-number.js';
import { smsAdapter, smsText } from '../src/gateways/notify/sms-adapter.js';
import { alertMessage } from './support/notify-receivers/alert-fixture.js';
import { startSmsProviderStandIn } from './support/notify-receivers/sms-provider-standin.js';
import { virtualTime } from './support/notify-receivers/virtual-time.js';

const valid = ['+447700900123', '+14155550100', '+8613800138000', '+491711234567', '+1234567', '+123456789012345'];
const invalid = [
  '447700900123',
  '+44 7700 900123',
  '+44-7700-900123',
  '+0447700900123',
  '+123456',
  '+1234567890123456',
  '',
  '+',
  '+44770090012a',
  ' +447700900123',
  '+447700900123\n',
];

test('E.164: a plus, a country code not starting with 0, 7 to 15 digits, nothing else', (t) => {
  for (const phone of valid) t.true(isE164(phone), phone);
  for (const phone of invalid) t.false(isE164(phone), JSON.stringify(phone));
});

test('through the provider: bearer credential, {to, body}, the idempotency key', async (t) => {
  const provider = await startSmsProviderStandIn();
  const client = createGuardedClient({ allowPrivateNetworks: true, ...virtualTime() });
  t.teardown(() => (client.close(), provider.stop()));
  const adapter = smsAdapter({
    client,
    providerUrl: `${provider.url}/v1/messages`,
    providerToken: provider.token,
    outboxDirectory: '/nonexistent',
  });
  const outcome = await adapter.deliver(
    { medium: 'sms', userId: 'u-1', phone: '+447700900123' },
    alertMessage(),
    'incident-1:stage-1:u-1:sms',
  );
  t.like(outcome, { ok: true, medium: 'sms', status_code: 202, target: 'user:u-1 +44*******123', attempts: 1 });
  t.deepEqual(provider.messages, [{ to: '+447700900123', body: smsText(alertMessage()) }]);
  t.is(provider.requests[0]!.headers['idempotency-key'], 'incident-1:stage-1:u-1:sms');
  t.true(smsText(alertMessage()).endsWith(alertMessage().incidentUrl));
});

test('a refused credential is reported without it', async (t) => {
  const provider = await startSmsProviderStandIn();
  const client = createGuardedClient({ allowPrivateNetworks: true, ...virtualTime() });
  t.teardown(() => (client.close(), provider.stop()));
  const adapter = smsAdapter({
    client,
    providerUrl: provider.url,
    providerToken: 'wrong-token-xyz',
    outboxDirectory: '/nonexistent',
  });
  const outcome = await adapter.deliver({ medium: 'sms', phone: '+447700900123' }, alertMessage(), 'k');
  t.like(outcome, { ok: false, status_code: 401, attempts: 1, error: { kind: 'http' } });
  t.false(JSON.stringify(outcome).includes('wrong-token-xyz'));
});

test('a number that is not E.164 is not sent anywhere', async (t) => {
  const provider = await startSmsProviderStandIn();
  const client = createGuardedClient({ allowPrivateNetworks: true });
  t.teardown(() => (client.close(), provider.stop()));
  const adapter = smsAdapter({
    client,
    providerUrl: provider.url,
    providerToken: provider.token,
    outboxDirectory: '/nonexistent',
  });
  const outcome = await adapter.deliver({ medium: 'sms', phone: '07700 900123' }, alertMessage(), 'k');
  t.like(outcome, { ok: false, attempts: 0, error: { kind: 'invalid_target' } });
  t.is(provider.requests.length, 0);
});

test('without a provider: a JSON file per delivery in the outbox', async (t) => {
  const directory = join(mkdtempSync(join(tmpdir(), 'notify-sms-')), 'outbox');
  const time = virtualTime();
  const outcome = await smsAdapter({ outboxDirectory: directory, now: time.now }).deliver(
    { medium: 'sms', phone: '+14155550100' },
    alertMessage(),
    'k-1',
  );
  t.like(outcome, { ok: true, target: '+14******100' });
  t.deepEqual(readdirSync(directory), [outcome.outbox_file]);
  t.deepEqual(JSON.parse(readFileSync(join(directory, outcome.outbox_file!), 'utf8')), {
    to: '+14155550100',
    body: smsText(alertMessage()),
    idempotency_key: 'k-1',
    created_at: '2026-03-01T12:00:00.000Z',
  });
});
