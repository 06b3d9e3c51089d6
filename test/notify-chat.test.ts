import test from 'ava';
import { createGuardedClient } from '../src/gateways/http/guarded-client.js';
import { chatAdapter } from '../src/gateways/notify/chat-adapter.js';
import { chatMessage } from '../src/gateways/notify/chat-message.js';
import type { ChatTarget } from '../src/gateways/notify/port.js';
import { alertMessage } from './support/notify-receivers/alert-fixture.js';
import { startChatReceiver, type ChatReceiver } from './support/notify-receivers/chat-receiver.js';
import { virtualTime } from './support/notify-receivers/virtual-time.js';

async function setUp(t: { teardown: (fn: () => unknown) => void }, allowPrivateNetworks = true) {
  const receiver = await startChatReceiver();
  const time = virtualTime();
  const client = createGuardedClient({ allowPrivateNetworks, ...time });
  t.teardown(() => (client.close(), receiver.stop()));
  return { receiver, adapter: chatAdapter(client), time };
}

const target = (receiver: ChatReceiver, url = receiver.webhookUrl): ChatTarget => ({
  medium: 'chat',
  channelId: 'c0ffee00-0000-4000-8000-000000000001',
  config: { webhook_url: url, channel_name: '#warehouse-alerts' },
});

test("an alert is posted to the incoming webhook as text plus blocks, in the webhook's own channel, with nothing Slack ignores or cannot route", async (t) => {
  const { receiver, adapter } = await setUp(t);
  const outcome = await adapter.deliver(target(receiver), alertMessage(), 'incident-1:stage-1:chat');
  t.like(outcome, {
    ok: true,
    medium: 'chat',
    target: 'channel:c0ffee00-0000-4000-8000-000000000001',
    status_code: 200,
    response_excerpt: 'ok',
    attempts: 1,
  });
  t.is(receiver.messages.length, 1);
  const posted = receiver.messages[0]!;
  t.is(posted.channel, receiver.channel, 'an incoming webhook posts to the channel it was installed for');
  t.deepEqual(
    posted.ignored,
    [],
    'no `channel` (nor username or icon) override: Slack drops it, so channel_name is only a label',
  );
  t.deepEqual(
    posted.unacknowledgeable,
    [],
    'no button: even a URL button sends an interaction the platform cannot acknowledge',
  );
  t.is(
    posted.text,
    '[CRITICAL] Triggered: Disk usage high (disk_used_percent 93.5 &gt; 90) on prod-analytics <https://watch.example.com/incidents/7d0c1a52-3f7b-4c1e-9a43-0b6f1f0e2a11|Open incident>',
  );
  const blocksText = JSON.stringify(posted.blocks);
  for (const expected of [
    '*Severity*\\ncritical',
    '*Rule*\\nDisk usage high',
    '*Metric*\\ndisk_used_percent',
    '*Value vs threshold*\\n93.5 &gt; 90',
    '*Cluster*\\nprod-analytics',
  ]) {
    t.true(blocksText.includes(expected), expected);
  }
  t.true(
    blocksText.includes(`<${alertMessage().incidentUrl}|Open incident>`),
    'the incident link stays, as a mrkdwn link',
  );
  t.is(receiver.requests[0]!.headers['idempotency-key'], 'incident-1:stage-1:chat');
});

test('a resolution is posted too, and says so', async (t) => {
  const { receiver, adapter } = await setUp(t);
  await adapter.deliver(
    target(receiver),
    alertMessage({ status: 'resolved', currentValue: 71 }),
    'incident-1:resolved:chat',
  );
  t.true(
    receiver.messages[0]!.text.startsWith(
      '[CRITICAL] Resolved: Disk usage high (disk_used_percent 71 (threshold &gt; 90)) on prod-analytics',
    ),
  );
  t.is((receiver.messages[0]!.blocks[0] as { text: { text: string } }).text.text, 'Resolved: Disk usage high');
});

test('text from rule names cannot create mentions or links in the chat', (t) => {
  const body = chatMessage(alertMessage({ ruleName: 'Disk <!channel> & <https://evil.example|click>' }));
  const mrkdwn = JSON.stringify([body.text, body.blocks.slice(1)]);
  t.false(mrkdwn.includes('<!channel>'), 'no raw mention in any mrkdwn text');
  t.true(body.text.includes('Disk &lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;'));
  t.is(
    (body.blocks[0] as { text: { text: string } }).text.text,
    'Triggered: Disk <!channel> & <https://evil.example|click>',
    'plain_text headers need no escaping',
  );
});

test("a webhook URL the chat service does not know is the service's answer, without the URL's secret", async (t) => {
  const { receiver, adapter } = await setUp(t);
  const outcome = await adapter.deliver(
    target(receiver, `${receiver.url}/services/T0001/B0001/wrong-${receiver.secret}`),
    alertMessage(),
    'k',
  );
  t.like(outcome, {
    ok: false,
    status_code: 404,
    response_excerpt: 'no_service',
    attempts: 1,
    error: { kind: 'http', message: `${receiver.url} answered 404` },
  });
  t.false(JSON.stringify(outcome).includes(receiver.secret));
});

test('with private networks off, a loopback webhook is refused and nothing is posted', async (t) => {
  const { receiver, adapter } = await setUp(t, false);
  const outcome = await adapter.deliver(target(receiver), alertMessage(), 'k');
  t.like(outcome, { ok: false, error: { kind: 'refused_address' } });
  t.false(outcome.error!.message.includes(receiver.secret));
  t.is(receiver.requests.length, 0);
});
