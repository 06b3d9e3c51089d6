/**
 * Issue 40's volume case on the real app: 10,000 Events API v2 triggers over 100 dedup keys, from
 * 32 senders at once, open 100 incidents that count every trigger (100 each) and page 100 times
 * (one page per incident through a webhook channel to a loopback receiver). The sustained rate and
 * its latencies are bench/ingest.ts's, not asserted here.
 */
import test from 'ava';
import { startHttpReceiver, type HttpReceiver } from './support/notify-receivers/http-receiver.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const TRIGGERS = 10_000;
const KEYS = 100;
const SENDERS = 32;

let app: TestApp;
let receiver: HttpReceiver;

test.before(async () => {
  receiver = await startHttpReceiver(() => ({ status: 204 }));
  // One routing key takes all 10,000: PagerDuty's 120 a minute would refuse nearly all of them.
  app = await startTestApp({
    env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', INTEGRATION_EVENTS_PER_KEY_PER_MINUTE: '1000000' },
  });
});
test.after.always(async () => {
  await app?.close();
  await receiver?.stop();
});

test('10,000 triggers over 100 dedup keys open 100 incidents and page 100 times', async (t) => {
  const caller = app.newTenant();
  const channel = await app.request('POST', '/api/v1/notification-channels', {
    caller,
    body: { name: 'pages', type: 'webhook', config: { url: `${receiver.url}/page`, method: 'POST', headers: {} } },
  });
  const policy = await app.request('POST', '/api/v1/escalation-policies', {
    caller,
    body: {
      name: 'volume',
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.body.data.id }] }],
    },
  });
  const integration = await app.request('POST', '/api/v1/integrations', {
    caller,
    body: { name: 'Airflow', kind: 'events_v2', escalation_policy_id: policy.body.data.id },
  });
  const { id, routing_key: routingKey } = integration.body.data;

  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (next < TRIGGERS) {
        const key = `dag-${next++ % KEYS}`;
        const answer = await app.request('POST', '/v2/enqueue', {
          body: {
            routing_key: routingKey,
            event_action: 'trigger',
            dedup_key: key,
            payload: { summary: `${key} failed`, source: 'airflow', severity: 'error' },
          },
        });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
    }),
  );
  t.deepEqual([...statuses], [[202, TRIGGERS]]);

  const incidents = async () => {
    const all: any[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: any } = await app.request(
        'GET',
        `/api/v1/incidents?source=integration:${id}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { caller },
      );
      all.push(...page.body.data);
      cursor = page.body.page?.next_cursor ?? null;
    } while (cursor);
    return all;
  };
  await waitFor(async () => (await incidents()).reduce((sum, incident) => sum + incident.alert_count, 0) === TRIGGERS, {
    timeoutMs: 30_000,
    message: 'every trigger counted',
  });
  const opened = await incidents();
  t.is(opened.length, KEYS);
  t.is(new Set(opened.map((incident) => incident.dedup_key)).size, KEYS);
  t.deepEqual([...new Set(opened.map((incident) => incident.alert_count))], [TRIGGERS / KEYS]);
  const pages = () => receiver.requests.filter((r) => JSON.parse(r.body).event === 'incident.triggered');
  await waitFor(() => pages().length >= KEYS, { timeoutMs: 30_000, message: 'a page per incident' });
  t.is(pages().length, KEYS);
  t.is(new Set(pages().map((r) => JSON.parse(r.body).incident.id)).size, KEYS, 'one page per incident');
});
