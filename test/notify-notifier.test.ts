import test from 'ava';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { notifyAdaptersFromSettings } from '../src/gateways/notify/adapters-from-settings.js';
import { createNotifier } from '../src/gateways/notify/notifier.js';
import type { MediumAdapter, NotifyTarget } from '../src/gateways/notify/port.js';
import { alertMessage } from './support/notify-receivers/alert-fixture.js';
import { startChatReceiver } from './support/notify-receivers/chat-receiver.js';
import { startPagerStandIn } from './support/notify-receivers/pager-events-standin.js';
import { virtualTime } from './support/notify-receivers/virtual-time.js';
import { startWebhookReceiver } from './support/notify-receivers/webhook-receiver.js';

const metricValue = async (registry: Registry, name: string, labels: Record<string, string>) => {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const match = (metric?.values ?? []).find((v) =>
    Object.entries(labels).every(([k, value]) => String((v.labels as Record<string, unknown>)[k]) === value),
  );
  return match?.value;
};

test('every medium is delivered through its adapter, built from settings, and counted', async (t) => {
  const time = virtualTime();
  const chat = await startChatReceiver();
  const pager = await startPagerStandIn();
  const webhook = await startWebhookReceiver({ secret: 'whsec_s', now: time.now });
  const outbox = join(mkdtempSync(join(tmpdir(), 'notifier-')), 'outbox');
  const { adapters, client } = notifyAdaptersFromSettings({
    allowPrivateNetworks: true,
    outboxDirectory: outbox,
    emailFrom: 'ww <a@watch.example.com>',
    pagerEventsUrl: pager.eventsUrl,
    clock: time,
  });
  t.teardown(() => (client.close(), chat.stop(), pager.stop(), webhook.stop()));
  const registry = new Registry();
  const notifier = createNotifier({ adapters, registry });
  const targets: NotifyTarget[] = [
    { medium: 'chat', channelId: 'c1', config: { webhook_url: chat.webhookUrl, channel_name: '#a' } },
    { medium: 'email', config: { recipients: ['x@example.com'] } },
    {
      medium: 'pager',
      channelId: 'p1',
      config: { integration_key: 'R0UT1NGKEY0000000000000000000007', severity_mapping: {} },
    },
    { medium: 'webhook', channelId: 'w1', config: { url: webhook.url, method: 'POST' }, signingSecret: 'whsec_s' },
    { medium: 'sms', phone: '+447700900123' },
  ];
  const outcomes = await Promise.all(targets.map((target, i) => notifier.deliver(target, alertMessage(), `key-${i}`)));
  t.deepEqual(
    outcomes.map((o) => [o.medium, o.ok]),
    [
      ['chat', true],
      ['email', true],
      ['pager', true],
      ['webhook', true],
      ['sms', true],
    ],
  );
  t.is(chat.messages.length, 1);
  t.is(pager.events.length, 1);
  t.is(webhook.accepted.length, 1);
  t.is(readdirSync(outbox).length, 2, 'email and sms in the outbox');
  for (const medium of ['chat', 'email', 'pager', 'webhook', 'sms']) {
    t.is(await metricValue(registry, 'notifications_sent_total', { medium, outcome: 'delivered' }), 1, medium);
    t.is(
      await metricValue(registry, 'notification_delivery_seconds', { medium, le: '+Inf' } as Record<string, string>),
      1,
      medium,
    );
  }
});

test('failures are counted by error kind, and a second notifier on the same registry shares the metrics', async (t) => {
  const registry = new Registry();
  const failing: MediumAdapter = {
    medium: 'chat',
    deliver: async (target) => ({
      ok: false,
      medium: target.medium,
      target: 'channel:c',
      latency_ms: 1500,
      error: { kind: 'timeout', message: 'x' },
    }),
  };
  const adapters = { chat: failing, email: failing, pager: failing, webhook: failing, sms: failing } as never;
  const target: NotifyTarget = {
    medium: 'chat',
    channelId: 'c',
    config: { webhook_url: 'https://chat.example.com/x', channel_name: '#a' },
  };
  await createNotifier({ adapters, registry }).deliver(target, alertMessage(), 'k');
  await createNotifier({ adapters, registry }).deliver(target, alertMessage(), 'k');
  t.is(await metricValue(registry, 'notifications_sent_total', { medium: 'chat', outcome: 'timeout' }), 2);
  t.is(
    await metricValue(registry, 'notification_delivery_seconds', { medium: 'chat', le: '1' } as Record<string, string>),
    0,
  );
  t.is(
    await metricValue(registry, 'notification_delivery_seconds', { medium: 'chat', le: '2.5' } as Record<
      string,
      string
    >),
    2,
  );
});

test('an adapter that throws becomes a failed outcome without its message, and is logged', async (t) => {
  const logged: object[] = [];
  const throwing: MediumAdapter = {
    medium: 'webhook',
    deliver: async () => {
      throw new Error('boom https://hooks.example.com/secret-path');
    },
  };
  const notifier = createNotifier({
    adapters: { webhook: throwing } as never,
    registry: new Registry(),
    logger: { error: (details) => void logged.push(details) },
  });
  const outcome = await notifier.deliver(
    {
      medium: 'webhook',
      channelId: 'w',
      config: { url: 'https://hooks.example.com/secret-path', method: 'POST' },
      signingSecret: 's',
    },
    alertMessage(),
    'k',
  );
  t.like(outcome, {
    ok: false,
    medium: 'webhook',
    target: 'channel:w',
    error: { kind: 'internal', message: 'the delivery failed unexpectedly' },
  });
  t.false(JSON.stringify(outcome).includes('secret-path'));
  t.is(logged.length, 1);
});
