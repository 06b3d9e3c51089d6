/**
 * Issue 25 item 9: a receiver that echoes what it was sent (Authorization, API keys, the signature)
 * must not get the channel's secrets recorded in clear: not in the test-send answer, not in
 * ChannelTestSent on the channel's history (readable with audit:read), not in delivery outcomes.
 */
import test from 'ava';
import { startHttpReceiver, type HttpReceiver } from './support/notify-receivers/http-receiver.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
let echo: HttpReceiver;

test.before(async () => {
  // Echoes every request header back, as JSON and as a raw header line.
  echo = await startHttpReceiver((request) => ({
    status: 401,
    body: `Authorization: ${String(request.headers.authorization)}\n${JSON.stringify(request.headers)}`,
  }));
  app = await startTestApp({ env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' } });
});
test.after.always(async () => {
  await app?.close();
  await echo?.stop();
});

test('an echoed Authorization header and API key are scrubbed from the test-send answer and the channel history', async (t) => {
  const caller = app.newTenant();
  const token = 'tok3n-ech0ed-by-the-receiver-9f8e7d6c';
  const apiKey = 'k3y-0f-the-receiver-a1b2c3d4';
  const created = await app.request('POST', '/api/v1/notification-channels', {
    caller,
    body: {
      name: 'echo',
      type: 'webhook',
      config: {
        url: `${echo.url}/echo`,
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'X-Api-Key': apiKey },
      },
    },
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  const channel = created.body.data as { id: string; signing_secret: string };

  const tested = await app.request('POST', `/api/v1/notification-channels/${channel.id}/test`, { caller, body: {} });
  t.is(tested.status, 200, JSON.stringify(tested.body));
  t.is(echo.requests.length, 1, 'the receiver was reached');
  t.true(
    echo.requests[0]!.headers.authorization === `Bearer ${token}`,
    'the receiver got the real header (it is only the record that is scrubbed)',
  );

  const excerpt = String(tested.body.response_excerpt);
  t.true(excerpt.includes('Authorization:'), `the excerpt is kept, scrubbed: ${excerpt}`);
  const history = await app.request('GET', `/api/v1/notification-channels/${channel.id}/events`, { caller });
  t.is(history.status, 200);
  const testSent = (history.body.data as Array<{ type: string; data: { responseExcerpt: string } }>).find(
    (e) => e.type === 'ChannelTestSent',
  );
  t.truthy(testSent);
  for (const [where, text] of [
    ['answer', JSON.stringify(tested.body)],
    ['history', JSON.stringify(history.body)],
  ] as const) {
    t.false(text.includes(token), `${where} holds the bearer token`);
    t.false(text.includes(apiKey), `${where} holds the API key`);
  }
  t.regex(testSent!.data.responseExcerpt, /^Authorization: \*{4}\n/);
});
