/**
 * Issue 38 §1, crash: kill -9 while a cluster's read-failure incident is open. The restarted
 * platform (same DATA_DIR; the simulator's pause shared through MongoDB, here the in-process
 * stand-in, so the cluster is still paused after the restart) finds the incident open: it opens no
 * second one and pages nobody again; resuming the cluster resolves it with one all-clear.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startMongoStandIn } from './support/mongo-standin/index.js';
import { startHttpReceiver } from './support/notify-receivers/http-receiver.js';
import { restartablePlatform } from './support/restartable-platform.js';
import { waitFor } from './support/wait-for.js';

test('SIGKILL while a read-failure incident is open: after the restart it is the same incident, paged once, and resolves once', async (t) => {
  const receiver = await startHttpReceiver(() => ({ status: 204 }));
  const mongo = await startMongoStandIn();
  const platform = await restartablePlatform('ww-read-failure-kill-', {
    ALERT_EVALUATION_INTERVAL_SECONDS: '1',
    MONGODB_URL: mongo.url,
    MONGODB_DATABASE: `ww_read_failure_${randomUUID().slice(0, 8)}`,
  });
  const { start, kill, api, metric } = platform;
  try {
    const first = await start();
    const channel = await api('POST', '/notification-channels', {
      name: 'on call',
      type: 'webhook',
      config: { url: `${receiver.url}/page`, method: 'POST', headers: {} },
    });
    const policy = await api('POST', '/api/v1/escalation-policies', {
      name: 'read failures',
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.body.data.id }] }],
    });
    t.is((await api('POST', '/api/v1/simulator/cluster', { paused: true })).status, 200);
    const rule = await api('POST', '/api/v1/alert-rules', {
      name: 'Storage always',
      metric: 'storage_utilization_pct',
      condition: 'gte',
      threshold: 0,
      evaluation_window_minutes: 0,
      severity: 'critical',
      escalation_policy_id: policy.body.data.id,
      error_for_minutes: 0,
    });
    t.is(rule.status, 201);
    const errorIncidents = async () => (await api('GET', '/api/v1/incidents?source=rule_error')).body.data as any[];
    let incidentId = '';
    await waitFor(async () => (incidentId = (await errorIncidents())[0]?.id ?? '') !== '', {
      timeoutMs: 20_000,
      message: 'the read-failure incident',
    });
    const pages = () => receiver.requests.filter((request) => request.path === '/page');
    await waitFor(() => pages().length === 1, { timeoutMs: 20_000, message: 'the page' });
    const eventTypes = async () =>
      ((await api('GET', `/api/v1/incidents/${incidentId}/events`)).body.data as { type: string }[]).map(
        (event) => event.type,
      );
    // Killed once the page is recorded as delivered (a page in flight at the kill is sent again:
    // the escalation manager delivers at least once, with the same idempotency key).
    await waitFor(async () => (await eventTypes()).includes('NotificationDelivered'), {
      timeoutMs: 20_000,
      message: 'the page recorded',
    });
    await kill(first);

    // The restarted platform ticks on the still-paused cluster…
    await start();
    await waitFor(async () => (await metric('evaluator_ticks_total')) >= 3, {
      timeoutMs: 30_000,
      message: 'three ticks after the restart',
    });
    // …and finds the incident open: the same one, not a second, and nobody paged again.
    const after = await errorIncidents();
    t.is(after.length, 1);
    t.like(after[0], { id: incidentId, status: 'triggered', rule_ids: [rule.body.data.id] });
    t.is(pages().length, 1, 'paged once across the restart');
    const types = await eventTypes();
    t.is(types.filter((type) => type === 'IncidentTriggered').length, 1);
    t.is(types.filter((type) => type === 'NotificationDelivered').length, 1);

    // Resumed: resolved by itself, one all-clear.
    t.is((await api('POST', '/api/v1/simulator/cluster', { paused: false })).status, 200);
    await waitFor(async () => (await errorIncidents())[0]?.status === 'resolved', {
      timeoutMs: 20_000,
      message: 'resolved after the resume',
    });
    // (Readable again, the rule's own condition, always true, opens its own incident: that page is another.)
    const aboutThisIncident = () => pages().filter((request) => String(request.body).includes(incidentId));
    await waitFor(() => aboutThisIncident().length === 2, { timeoutMs: 20_000, message: 'the all-clear' });
    t.regex(String(aboutThisIncident()[1]!.body), /resolved/);
    t.is((await errorIncidents()).length, 1);
  } finally {
    await platform.stop();
    await receiver.stop();
    await mongo.stop();
  }
});
