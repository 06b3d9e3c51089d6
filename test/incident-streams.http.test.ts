/**
 * Issue 39 item 4: live consoles for a whole organisation. A tenant's people may hold
 * INCIDENT_STREAMS_PER_USER (5) incident streams each and INCIDENT_STREAMS_PER_TENANT (2,000)
 * together, all fed by the hub's one log subscription; one more than a person's cap is a 429 that
 * names that cap, and the person's colleagues still connect.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { connectSse } from './support/sse-client.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

let app: TestApp;

test.before(async () => {
  app = await startTestApp({ env: { ALERT_EVALUATION_INTERVAL_SECONDS: '1' } });
});
test.after.always(async () => {
  await app?.close();
});

const hub = () => app.platform.composition.alerting.hub;
const person = (tenant: Caller): Caller => ({ ...tenant, userId: randomUUID() });

function openStream(t: { teardown(fn: () => Promise<void>): void }, caller: Caller, token = app.token(caller)) {
  const stream = connectSse(`${app.url}/api/v1/incidents/stream`, { authorization: `Bearer ${token}` });
  t.teardown(() => stream.close());
  return stream;
}

/** The stream's answer head: a refusal's problem, or a stream that opened (then closed at once). */
async function streamAnswer(caller: Caller) {
  const controller = new AbortController();
  const response = await fetch(`${app.url}/api/v1/incidents/stream`, {
    headers: { authorization: `Bearer ${app.token(caller)}` },
    signal: controller.signal,
  });
  const body = response.status === 200 ? undefined : await response.json();
  controller.abort();
  return { status: response.status, headers: response.headers, body };
}

async function created(caller: Caller, path: string, body: unknown): Promise<any> {
  const response = await app.request('POST', path, { caller, body });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** A rule over a pinned metric that triggers on its first evaluation. */
async function triggerAnIncident(caller: Caller) {
  const channel = await created(caller, '/notification-channels', {
    name: 'ops',
    type: 'chat',
    config: { webhook_url: 'https://chat.example/hook', channel_name: '#ops' },
  });
  const policy = await created(caller, '/api/v1/escalation-policies', {
    name: 'DBA',
    stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.id }] }],
  });
  await app.request('POST', '/api/v1/simulator/metrics', {
    caller,
    body: { metric: 'queue_time_seconds', value: 70, duration_seconds: 3600 },
  });
  return created(caller, '/api/v1/alert-rules', {
    name: 'Queue wait',
    metric: 'queue_time_seconds',
    condition: 'gt',
    threshold: 30,
    evaluation_window_minutes: 0,
    severity: 'high',
    escalation_policy_id: policy.id,
  });
}

test.serial('400 streams of 200 people in one tenant all receive the incident it triggers', async (t) => {
  const tenant = app.newTenant();
  const people = Array.from({ length: 200 }, () => person(tenant));
  const listenersBefore = hub().listenerCount();
  // Two tabs each, signed in once (one token a person).
  const streams = people.flatMap((who) => {
    const token = app.token(who);
    return [openStream(t, who, token), openStream(t, who, token)];
  });
  await waitFor(() => streams.every((stream) => stream.status() !== 0), {
    timeoutMs: 30_000,
    message: 'every stream answered',
  });
  const statuses = new Map<number, number>();
  for (const stream of streams) statuses.set(stream.status(), (statuses.get(stream.status()) ?? 0) + 1);
  t.deepEqual(Object.fromEntries(statuses), { 200: 400 }, 'every stream was let in');
  t.is(hub().listenerCount() - listenersBefore, 400, 'each stream listens to the one shared subscription');

  const rule = await triggerAnIncident(people[0]!);
  const triggered = (stream: (typeof streams)[number]) =>
    stream.events.find((event) => event.event === 'IncidentTriggered' && event.data.data.ruleId === rule.id);
  await waitFor(() => streams.every((stream) => triggered(stream) !== undefined), {
    timeoutMs: 30_000,
    message: 'the trigger on every stream',
  });
  const ids = new Set(streams.map((stream) => triggered(stream)!.id));
  t.is(ids.size, 1, 'one event, the same position on every stream');
  await Promise.all(streams.map((stream) => stream.close()));
  await waitFor(() => hub().listenerCount() === listenersBefore, { message: 'every listener released' });
});

test.serial(
  "a person's sixth stream is a 429 naming INCIDENT_STREAMS_PER_USER; colleagues still connect; a closed tab frees a place",
  async (t) => {
    const tenant = app.newTenant();
    const alice = person(tenant);
    const answered = async (stream: ReturnType<typeof openStream>) => {
      await waitFor(() => stream.status() !== 0, { message: 'the stream answer' });
      return stream.status();
    };
    const tabs = Array.from({ length: 5 }, () => openStream(t, alice));
    for (const tab of tabs) t.is(await answered(tab), 200);

    const refused = await streamAnswer(alice);
    t.is(refused.status, 429);
    t.is(refused.headers.get('content-type'), 'application/problem+json');
    t.true(Number(refused.headers.get('retry-after')) >= 1);
    t.like(refused.body, { status: 429, title: 'Too Many Requests', cap: 'per_user', limit: 5 });
    t.regex(refused.body.detail, /INCIDENT_STREAMS_PER_USER/);

    for (const colleague of [person(tenant), person(tenant)]) t.is(await answered(openStream(t, colleague)), 200);
    await tabs[0]!.close();
    await waitFor(async () => (await answered(openStream(t, alice))) === 200, {
      message: "a place freed by alice's closed tab",
    });
    t.pass();
  },
);
