import test from 'ava';
import { Registry } from 'prom-client';
import { createNotifier, type NotifyAdapters } from '../src/gateways/notify/notifier.js';
import type { DeliveryOutcome, MediumAdapter, NotifyTarget } from '../src/gateways/notify/port.js';
import { scrubSecrets, targetSecrets } from '../src/gateways/notify/secret-scrubbing.js';
import { alertMessage } from './support/notify-receivers/alert-fixture.js';

const chat: NotifyTarget = {
  medium: 'chat',
  channelId: 'c1',
  config: { webhook_url: 'https://chat.example.com/hooks/T000/B000/XXXXsecretpath', channel_name: '#a' },
};
const pager: NotifyTarget = {
  medium: 'pager',
  channelId: 'p1',
  config: { integration_key: 'R0UT1NG-KEY-abcdef012345', severity_mapping: {} },
};
const webhook: NotifyTarget = {
  medium: 'webhook',
  channelId: 'w1',
  config: {
    url: 'https://hooks.example.com/in',
    method: 'POST',
    headers: { Authorization: 'Basic dXNlcjpwYXNzd29yZA==', 'X-Team': 'dba' },
  },
  signingSecret: 'whsec_signing_0123456789',
};

test('every configured secret of a target is scrubbed, in clear, URL-encoded and JSON-escaped; ordinary header values are not', (t) => {
  const echo = (target: NotifyTarget, text: string) => scrubSecrets(text, targetSecrets(target));
  t.is(echo(chat, 'posted to /hooks/T000/B000/XXXXsecretpath'), 'posted to ****');
  t.is(echo(chat, 'bad url https://chat.example.com/hooks/T000/B000/XXXXsecretpath'), 'bad url ****');
  t.is(echo(chat, `path=${encodeURIComponent('/hooks/T000/B000/XXXXsecretpath')}`), 'path=****');
  t.is(
    echo(pager, '{"routing_key":"R0UT1NG-KEY-abcdef012345","status":"invalid"}'),
    '{"routing_key":"****","status":"invalid"}',
  );
  t.is(
    echo(webhook, 'got dXNlcjpwYXNzd29yZA== and whsec_signing_0123456789 for team dba'),
    'got **** and **** for team dba',
  );
});

test('credential-shaped text is scrubbed even when no configured secret matches it', (t) => {
  const none: string[] = [];
  t.is(scrubSecrets('Authorization: Bearer abcdefghijklmnop', none), 'Authorization: Bearer ****');
  t.is(scrubSecrets('{"authorization":"Token zzzzzzzzzzzz"}', none), '{"authorization":"Token ****"}');
  t.is(scrubSecrets('{"x-api-key":"qwertyuiop123"}', none), '{"x-api-key":"****"}');
  t.is(scrubSecrets('token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl here', none), 'token **** here');
  t.is(scrubSecrets('queued for the on-call bot', none), 'queued for the on-call bot');
});

test('the notifier scrubs every outcome it hands back (test sends and escalation deliveries alike)', async (t) => {
  const echoing: MediumAdapter = {
    medium: 'webhook',
    deliver: async (target): Promise<DeliveryOutcome> => {
      const headers = (target as Extract<NotifyTarget, { medium: 'webhook' }>).config.headers!;
      return {
        ok: false,
        medium: 'webhook',
        target: 'channel:w1',
        status_code: 401,
        latency_ms: 1,
        response_excerpt: `you sent ${headers.Authorization}`,
        error: { kind: 'http', message: `answered 401: ${headers.Authorization}` },
      };
    },
  };
  const notifier = createNotifier({
    adapters: { webhook: echoing } as unknown as NotifyAdapters,
    registry: new Registry(),
  });
  const outcome = await notifier.deliver(webhook, alertMessage(), 'k');
  t.is(outcome.response_excerpt, 'you sent ****');
  t.is(outcome.error?.message, 'answered 401: ****');
});
