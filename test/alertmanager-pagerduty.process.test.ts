/**
 * The test of done for the Events API v2 address: Debian's real Prometheus Alertmanager
 * (/usr/bin/prometheus-alertmanager), configured with a `pagerduty_configs` receiver whose `url` is
 * our `/v2/enqueue` and whose `routing_key` is an integration's key (docs/integrations.md shows the
 * same configuration), changes nothing else. Alerts posted to Alertmanager's API open incidents,
 * page the integration's policy once per incident (a webhook channel to a local receiver), and
 * resolve when the alerts resolve (posted again with `endsAt` in the past).
 *
 * Alertmanager runs on a random loopback port with its own storage directory and no cluster
 * listener, with short group timings, and is killed at the end. Skipped, saying why, when the
 * binary is absent.
 */
import test from 'ava';
import {
  alertmanagerAvailable,
  alertmanagerSkipReason,
  startAlertmanager,
  type RunningAlertmanager,
} from './support/alertmanager-process.js';
import { startHttpReceiver, type HttpReceiver } from './support/notify-receivers/http-receiver.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

/** The receiver configuration docs/integrations.md gives, with test timings. */
const alertmanagerConfig = (eventsUrl: string, routingKey: string) => `
route:
  receiver: warehouse-watch
  group_by: ['alertname']
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 4h
receivers:
  - name: warehouse-watch
    pagerduty_configs:
      - routing_key: ${routingKey}
        url: ${eventsUrl}
        send_resolved: true
`;

let app: TestApp;
let receiver: HttpReceiver;
let alertmanager: RunningAlertmanager | undefined;

const suite = alertmanagerAvailable() ? test.serial : test.serial.skip;
if (!alertmanagerAvailable())
  test.skip(`Alertmanager pages through /v2/enqueue: skipped, ${alertmanagerSkipReason}`, () => {});

test.before(async () => {
  if (!alertmanagerAvailable()) return;
  receiver = await startHttpReceiver(() => ({ status: 204 }));
  app = await startTestApp({ env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' } });
});
test.after.always(async () => {
  await alertmanager?.stop();
  await app?.close();
  await receiver?.stop();
});

async function pagingIntegration(caller: Caller) {
  const channel = await app.request('POST', '/api/v1/notification-channels', {
    caller,
    body: { name: 'am', type: 'webhook', config: { url: `${receiver.url}/am`, method: 'POST', headers: {} } },
  });
  const policy = await app.request('POST', '/api/v1/escalation-policies', {
    caller,
    body: {
      name: 'am policy',
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.body.data.id }] }],
    },
  });
  const integration = await app.request('POST', '/api/v1/integrations', {
    caller,
    body: { name: 'Alertmanager', kind: 'events_v2', escalation_policy_id: policy.body.data.id },
  });
  if (integration.status !== 201) throw new Error(JSON.stringify(integration.body));
  return integration.body.data;
}

suite('alerts posted to a real Alertmanager open incidents, page once each, and resolve with the alerts', async (t) => {
  const caller = app.newTenant();
  const integration = await pagingIntegration(caller);
  alertmanager = await startAlertmanager(alertmanagerConfig(`${app.url}/v2/enqueue`, integration.routing_key));
  const output = () => alertmanager!.output();

  const startsAt = new Date().toISOString();
  const alerts = (endsAt?: string) =>
    ['WarehouseQueueBacklog', 'NightlyLoadLate'].map((alertname) => ({
      labels: { alertname, cluster: 'analytics' },
      annotations: { summary: `${alertname} on analytics` },
      startsAt,
      ...(endsAt ? { endsAt } : {}),
    }));
  const post = async (body: unknown) => {
    const answer = await alertmanager!.postAlerts(body);
    t.is(answer.status, 200, await answer.text());
  };
  const incidents = async () =>
    (await app.request('GET', `/api/v1/incidents?source=integration:${integration.id}`, { caller })).body.data as any[];
  const pages = () => receiver.requests.filter((request) => JSON.parse(request.body).event === 'incident.triggered');

  await post(alerts());
  await waitFor(async () => (await incidents()).length === 2, {
    timeoutMs: 30_000,
    intervalMs: 100,
    message: `two incidents (Alertmanager said: ${output()})`,
  });
  for (const incident of await incidents()) {
    t.is(incident.status, 'triggered');
    t.regex(incident.dedup_key, /^[0-9a-f]{64}$/, "Alertmanager's dedup key: the hash of its group key");
    t.is(incident.sender.client, 'Alertmanager');
  }
  t.deepEqual((await incidents()).map((incident) => incident.title.includes('analytics')).sort(), [true, true]);
  await waitFor(() => pages().length === 2, { timeoutMs: 30_000, intervalMs: 100, message: 'two pages' });

  // The same alerts again (Alertmanager's own re-sends within repeat_interval are deduplicated by it):
  // nothing new opens, nobody is paged again.
  await post(alerts());

  // Resolved: endsAt in the past.
  await post(alerts(new Date(Date.now() - 1000).toISOString()));
  await waitFor(async () => (await incidents()).every((incident) => incident.status === 'resolved'), {
    timeoutMs: 30_000,
    intervalMs: 100,
    message: `both incidents resolved (Alertmanager said: ${output()})`,
  });
  const resolved = await incidents();
  t.is(resolved.length, 2);
  for (const incident of resolved) t.is(incident.resolved_by, `integration:${integration.id}`);
  t.is(pages().length, 2, 'one page per incident');
});
