/**
 * Eight writers on one stream at once, as a team adding notes to the incident they all look at, or
 * clicking "test" on one channel: a command without If-Match re-reads and retries its conflicting
 * append (with backoff) until it lands, so none of them is a 409; one with a stale If-Match still is.
 */
import test from 'ava';
import { startHttpReceiver, type HttpReceiver } from './support/notify-receivers/http-receiver.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

let app: TestApp;
let receiver: HttpReceiver;

test.before(async () => {
  receiver = await startHttpReceiver(() => ({ status: 204 }));
  app = await startTestApp({
    env: {
      ALERT_EVALUATION_INTERVAL_SECONDS: '1',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      // What is tested is that contention is never a 409, not how fast sixty writers land on a loaded
      // machine: the budget is far beyond it (test/command-contention.test.ts covers a spent one).
      COMMAND_CONFLICT_BUDGET_MS: '600000',
    },
  });
});
test.after.always(async () => {
  await app?.close();
  await receiver?.stop();
});

const WRITERS = 8;
/** Bursts per test: one burst of 8 used to see a 409 about one time in eight, three make it near certain. */
const BURSTS = 3;

async function webhookChannel(caller: Caller, path: string) {
  const created = await app.request('POST', '/notification-channels', {
    caller,
    body: { name: path, type: 'webhook', config: { url: `${receiver.url}/${path}`, method: 'POST', headers: {} } },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return created.body.data.id as string;
}

async function triggeredIncident(caller: Caller, { settled = true } = {}) {
  const channelId = await webhookChannel(caller, 'paged');
  const policy = await app.request('POST', '/api/v1/escalation-policies', {
    caller,
    body: {
      name: 'DBA',
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channelId }] }],
    },
  });
  await app.request('POST', '/api/v1/simulator/metrics', {
    caller,
    body: { metric: 'queue_time_seconds', value: 99, duration_seconds: 3600 },
  });
  const rule = await app.request('POST', '/api/v1/alert-rules', {
    caller,
    body: {
      name: 'Queue wait',
      metric: 'queue_time_seconds',
      condition: 'gt',
      threshold: 30,
      evaluation_window_minutes: 0,
      severity: 'high',
      escalation_policy_id: policy.body.data.id,
    },
  });
  let incidentId = '';
  await waitFor(
    async () => {
      incidentId =
        (await app.request('GET', `/api/v1/incidents?rule_id=${rule.body.data.id}`, { caller })).body.data?.[0]?.id ??
        '';
      return incidentId !== '';
    },
    { timeoutMs: 15_000, message: 'the incident' },
  );
  if (!settled) return incidentId;
  // Stage 1's page settled first, so the writers below race each other only, not the escalation too.
  await waitFor(
    async () =>
      (await app.request('GET', `/api/v1/incidents/${incidentId}`, { caller })).body.data.escalation.notified.length ===
      1,
    { timeoutMs: 10_000, message: 'stage 1 delivered' },
  );
  return incidentId;
}

test.serial('eight notes at once on one incident, without If-Match: all 201, all eight in its history', async (t) => {
  const caller = app.newTenant();
  const incidentId = await triggeredIncident(caller);
  const texts: string[] = [];
  for (let burst = 0; burst < BURSTS; burst++) {
    const batch = Array.from({ length: WRITERS }, (_, i) => `burst ${burst} note ${i}`);
    texts.push(...batch);
    const answers = await Promise.all(
      batch.map((text) => app.request('POST', `/api/v1/incidents/${incidentId}/notes`, { caller, body: { text } })),
    );
    t.deepEqual(
      answers.map((a) => a.status),
      batch.map(() => 201),
      JSON.stringify(answers.filter((a) => a.status !== 201).map((a) => a.body)),
    );
  }
  const incident = (await app.request('GET', `/api/v1/incidents/${incidentId}`, { caller })).body.data;
  t.deepEqual(incident.notes.map((n: { text: string }) => n.text).sort(), [...texts].sort());
  const events = (await app.request('GET', `/api/v1/incidents/${incidentId}/events`, { caller })).body.data as {
    type: string;
    data: { text: string };
  }[];
  t.deepEqual(
    events
      .filter((e) => e.type === 'IncidentNoteAdded')
      .map((e) => e.data.text)
      .sort(),
    [...texts].sort(),
    'each note once on the stream',
  );
});

/** Far more writers than the nine retries a fixed count allowed: a conflict is now retried for a time budget. */
const MANY_NOTES = 60;

test.serial(
  'sixty notes at once on one incident while its escalation appends to it: all 201 (no 409 without If-Match), each once',
  async (t) => {
    const caller = app.newTenant();
    // Not settled: stage 1's EscalationStageFired and its delivery's outcome land on the stream among the notes.
    const incidentId = await triggeredIncident(caller, { settled: false });
    const texts = Array.from({ length: MANY_NOTES }, (_, i) => `note ${i}`);
    const answers = await Promise.all(
      texts.map((text) => app.request('POST', `/api/v1/incidents/${incidentId}/notes`, { caller, body: { text } })),
    );
    t.deepEqual(
      answers.map((a) => a.status),
      texts.map(() => 201),
      JSON.stringify(answers.filter((a) => a.status !== 201).map((a) => a.body)),
    );
    const events = (await app.request('GET', `/api/v1/incidents/${incidentId}/events`, { caller })).body.data as {
      type: string;
      data: { text: string };
    }[];
    t.deepEqual(
      events
        .filter((e) => e.type === 'IncidentNoteAdded')
        .map((e) => e.data.text)
        .sort(),
      [...texts].sort(),
      'each note once on the stream',
    );
    await waitFor(
      async () =>
        (await app.request('GET', `/api/v1/incidents/${incidentId}`, { caller })).body.data.escalation.notified
          .length === 1,
      { timeoutMs: 10_000, message: 'the escalation went on beside the notes' },
    );
  },
);

test.serial(
  'eight test sends at once on one channel: all succeed, each sent and recorded exactly once; a stale If-Match is still a 409',
  async (t) => {
    const caller = app.newTenant();
    const channelId = await webhookChannel(caller, 'tested');
    const sent = () => receiver.requests.filter((r) => r.path === '/tested').length;
    for (let burst = 0; burst < BURSTS; burst++) {
      const answers = await Promise.all(
        Array.from({ length: WRITERS }, () =>
          app.request('POST', `/notification-channels/${channelId}/test`, { caller, body: {} }),
        ),
      );
      t.deepEqual(
        answers.map((a) => a.status),
        answers.map(() => 200),
        JSON.stringify(answers.filter((a) => a.status !== 200).map((a) => a.body)),
      );
    }
    t.is(sent(), WRITERS * BURSTS, 'a retried append re-records the result; it never sends again');
    const history = (await app.request('GET', `/notification-channels/${channelId}/events`, { caller })).body.data as {
      type: string;
    }[];
    t.is(history.filter((e) => e.type === 'ChannelTestSent').length, WRITERS * BURSTS);

    const stale = await app.request('PUT', `/notification-channels/${channelId}`, {
      caller,
      headers: { 'If-Match': '"0"' },
      body: {
        name: 'renamed',
        type: 'webhook',
        config: { url: `${receiver.url}/tested`, method: 'POST', headers: {} },
      },
    });
    t.is(stale.status, 409, JSON.stringify(stale.body));
    t.regex(stale.headers.get('content-type') ?? '', /^application\/problem\+json/);
    t.is(
      (await app.request('GET', `/notification-channels/${channelId}`, { caller })).body.data.name,
      'tested',
      'the stale write changed nothing',
    );
  },
);
