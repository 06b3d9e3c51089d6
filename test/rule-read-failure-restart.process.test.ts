/**
 * Issue 38 §1, crash: kill -9 while a cluster's read-failure incident is open. The restarted
 * platform (same DATA_DIR; the simulator's pause shared through MongoDB, here the in-process
 * stand-in, so the cluster is still paused after the restart) finds the incident open: it opens no
 * second one and pages nobody again; resuming the cluster resolves it with one all-clear.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMongoStandIn } from './support/mongo-standin/index.js';
import { startHttpReceiver } from './support/notify-receivers/http-receiver.js';
import { devToken, freePort, startPlatformProcess, type PlatformProcess } from './support/platform-process.js';
import { waitFor } from './support/wait-for.js';

/** A start-up is mostly module loading: seconds on a quiet machine, tens of them on a busy one. */
const START_TIMEOUT_MS = 60_000;

test('SIGKILL while a read-failure incident is open: after the restart it is the same incident, paged once, and resolves once', async (t) => {
  const receiver = await startHttpReceiver(() => ({ status: 204 }));
  const mongo = await startMongoStandIn();
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-read-failure-kill-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    BASE_URL: url,
    ALERT_EVALUATION_INTERVAL_SECONDS: '1',
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
    MONGODB_URL: mongo.url,
    MONGODB_DATABASE: `ww_read_failure_${port}`,
  };
  const running: PlatformProcess[] = [];
  const start = async () => {
    const platform = await startPlatformProcess(env, START_TIMEOUT_MS);
    running.push(platform);
    return platform;
  };
  const metric = async (name: string) =>
    Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(await (await fetch(`${url}/metrics`)).text())?.[1] ?? NaN);
  try {
    const first = await start();
    const token = await devToken(url, dataDir);
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
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
    first.child.kill('SIGKILL');
    await first.exited;

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
    for (const platform of running) if (platform.child.exitCode === null) platform.child.kill('SIGKILL');
    await Promise.all(running.map((platform) => platform.exited));
    await receiver.stop();
    await mongo.stop();
  }
});
