/**
 * The Alertmanager webhook receiver's test of done: Debian's real Prometheus Alertmanager
 * (test/support/alertmanager-process.ts) with a `webhook_configs` receiver whose `url` is an
 * alertmanager integration's address (docs/integrations.md shows the same configuration). Alerts
 * posted to Alertmanager's API reach us as its webhook payload version 4: each alert (by
 * fingerprint) opens an incident with its labels and annotations, which pages the integration's
 * policy once, and resolves when the alert is resolved (posted again with `endsAt` in the past).
 * Skipped, saying why, when the binary is absent.
 */
import test from 'ava';
import {
  alertmanagerAvailable,
  alertmanagerSkipReason,
  startAlertmanager,
  type RunningAlertmanager,
} from './support/alertmanager-process.js';
import { incidentsOf, pagesTo, pagingIntegration } from './support/integration-fixtures.js';
import { startHttpReceiver, type HttpReceiver } from './support/notify-receivers/http-receiver.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

/** The receiver configuration docs/integrations.md gives, with test timings. */
const alertmanagerConfig = (webhookUrl: string) => `
route:
  receiver: warehouse-watch
  group_by: ['cluster']
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 4h
receivers:
  - name: warehouse-watch
    webhook_configs:
      - url: ${webhookUrl}
        send_resolved: true
`;

let app: TestApp;
let receiver: HttpReceiver;
let alertmanager: RunningAlertmanager | undefined;

const suite = alertmanagerAvailable() ? test.serial : test.serial.skip;
if (!alertmanagerAvailable())
  test.skip(`Alertmanager's webhook opens incidents: skipped, ${alertmanagerSkipReason}`, () => {});

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

suite('alerts posted to a real Alertmanager reach its webhook receiver: one incident per alert, paged once, resolved with it', async (t) => {
  const caller = app.newTenant();
  const integration = await pagingIntegration(app, receiver, caller, 'am-webhook', {
    kind: 'alertmanager',
    severity_map: { page: 'critical', ticket: 'low' },
  });
  // events_url is under PUBLIC_URL; the test platform listens on its own port.
  const address = new URL(integration.events_url).pathname;
  t.is(address, `/integrations/alertmanager/${integration.routing_key}`);
  alertmanager = await startAlertmanager(alertmanagerConfig(`${app.url}${address}`));
  const output = () => alertmanager!.output();

  const startsAt = new Date().toISOString();
  const alerts = (endsAt?: string) =>
    [
      ['WarehouseQueueBacklog', 'page'],
      ['NightlyLoadLate', 'ticket'],
    ].map(([alertname, severity]) => ({
      labels: { alertname, cluster: 'analytics', severity },
      annotations: { summary: `${alertname} on analytics`, runbook_url: `https://runbooks.example/${alertname}` },
      generatorURL: 'http://prometheus.example:9090/graph',
      startsAt,
      ...(endsAt ? { endsAt } : {}),
    }));
  const post = async (body: unknown) => {
    const answer = await alertmanager!.postAlerts(body);
    t.is(answer.status, 200, await answer.text());
  };
  const incidents = () => incidentsOf(app, caller, integration.id);

  await post(alerts());
  await waitFor(async () => (await incidents()).length === 2, {
    timeoutMs: 30_000,
    intervalMs: 100,
    message: `two incidents (Alertmanager said: ${output()})`,
  });
  const opened = await incidents();
  for (const incident of opened) {
    t.is(incident.status, 'triggered');
    t.regex(incident.dedup_key, /^[0-9a-f]{16}$/, "Alertmanager's fingerprint");
    t.like(incident.sender, { client: 'Alertmanager', source: 'warehouse-watch' });
    t.is(incident.sender.labels.cluster, 'analytics');
    t.is(
      incident.sender.custom_details.annotations.runbook_url,
      `https://runbooks.example/${incident.sender.labels.alertname}`,
    );
  }
  const byName = Object.fromEntries(opened.map((incident) => [incident.sender.labels.alertname, incident]));
  t.like(byName.WarehouseQueueBacklog, { title: 'WarehouseQueueBacklog on analytics', severity: 'critical' });
  t.like(byName.NightlyLoadLate, { title: 'NightlyLoadLate on analytics', severity: 'low' });
  await waitFor(() => pagesTo(receiver, 'am-webhook').length === 2, {
    timeoutMs: 30_000,
    intervalMs: 100,
    message: 'two pages',
  });

  // Resolved: endsAt in the past; Alertmanager sends the group again, resolved.
  await post(alerts(new Date(Date.now() - 1000).toISOString()));
  await waitFor(async () => (await incidents()).every((incident) => incident.status === 'resolved'), {
    timeoutMs: 30_000,
    intervalMs: 100,
    message: `both incidents resolved (Alertmanager said: ${output()})`,
  });
  const resolved = await incidents();
  t.is(resolved.length, 2);
  for (const incident of resolved) t.is(incident.resolved_by, `integration:${integration.id}`);
  t.is(pagesTo(receiver, 'am-webhook').length, 2, 'one page per incident');
});
