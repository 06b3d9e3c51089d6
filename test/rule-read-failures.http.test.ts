/**
 * Issue 38 §1, end to end: a rule whose warehouse cannot be read pages through its policy (one
 * incident per cluster and policy, source `rule_error`) once reads have failed for
 * `error_for_minutes`, and the incident resolves by itself, with an all-clear, when reads succeed.
 * The evaluator ticks every 2 s on real timers; "now" is a virtual clock the test moves on.
 */
import test from 'ava';
import { VirtualClock } from './support/escalation-harness.js';
import { startSmtpReceiver, type SmtpReceiver } from './support/notify-receivers/smtp-receiver.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

let app: TestApp;
let smtp: SmtpReceiver;
const clock = new VirtualClock();

test.before(async () => {
  smtp = await startSmtpReceiver();
  app = await startTestApp({
    now: clock.now,
    scheduler: clock.scheduler,
    env: { ALERT_EVALUATION_INTERVAL_SECONDS: '2', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', SMTP_URL: smtp.url },
  });
});
test.after.always(async () => {
  await app?.close();
  await smtp?.stop();
});

/** Moves the virtual clock on, firing the timers due on the way (the escalation manager's). */
function advance(ms: number) {
  const target = clock.scheduler.frame + ms;
  clock.scheduler.maxFrames = target;
  clock.scheduler.flush();
  if (clock.scheduler.frame < target) clock.scheduler.frame = target;
  clock.scheduler.maxFrames = Infinity;
}

async function created(caller: Caller, path: string, body: unknown): Promise<any> {
  const response = await app.request('POST', path, { caller, body });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** A policy whose one stage emails `recipient` at once. */
async function emailPolicy(caller: Caller, recipient: string): Promise<string> {
  const channel = await created(caller, '/notification-channels', {
    name: `mail ${recipient}`,
    type: 'email',
    config: { recipients: [recipient], subject_template: '{{severity}} incident' },
  });
  const policy = await created(caller, '/api/v1/escalation-policies', {
    name: `policy ${recipient}`,
    stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.id }] }],
  });
  return policy.id;
}

const pause = async (caller: Caller, paused: boolean) => {
  const answer = await app.request('POST', '/api/v1/simulator/cluster', { caller, body: { paused } });
  if (answer.status !== 200) throw new Error(`pause: ${answer.status} ${JSON.stringify(answer.body)}`);
};
const errorIncidents = async (caller: Caller) =>
  (await app.request('GET', '/api/v1/incidents?source=rule_error', { caller })).body.data as any[];
const mailsTo = (recipient: string, text: RegExp) =>
  smtp.mails.filter(
    (mail) => mail.to.includes(recipient) && text.test(mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')),
  );
const ticks = async () =>
  Number(/^evaluator_ticks_total (\S+)$/m.exec((await app.request('GET', '/metrics')).body)?.[1] ?? NaN);
/** Waits until the evaluator has ticked `count` more times (so a test can say "and still nothing else"). */
async function moreTicks(count: number) {
  const start = await ticks();
  await waitFor(async () => (await ticks()) >= start + count, { timeoutMs: 20_000, message: `${count} more ticks` });
}

test.serial(
  'a paused cluster pages once after error_for_minutes (default 5) and resolves itself with an all-clear when resumed',
  async (t) => {
    const caller = app.newTenant();
    const recipient = 'paused@example.com';
    const policyId = await emailPolicy(caller, recipient);
    // Given a paused cluster and a rule that is always true when readable, created with the defaults…
    await pause(caller, true);
    const rule = await created(caller, '/api/v1/alert-rules', {
      name: 'Storage always',
      metric: 'storage_utilization_pct',
      condition: 'gte',
      threshold: 0,
      evaluation_window_minutes: 0,
      severity: 'critical',
      escalation_policy_id: policyId,
    });
    t.like(rule, { on_error: 'alerting', on_no_data: 'alerting', error_for_minutes: 5 });

    // …when it fails for less than five minutes, nobody is paged and the history says why…
    await waitFor(
      async () =>
        (await app.request('GET', `/api/v1/alert-rules/${rule.id}`, { caller })).body.data.health === 'failing',
      { timeoutMs: 20_000, message: 'the rule failing' },
    );
    await moreTicks(2);
    t.deepEqual(await errorIncidents(caller), []);
    const history = (await app.request('GET', `/api/v1/alert-rules/${rule.id}/history`, { caller })).body.data;
    t.like(history[0], { outcome: 'error', value: null, incident_id: null });
    t.regex(history[0].error, /paused/);

    // …and once it has failed for five minutes, within one more interval one incident opens and pages.
    advance(5 * 60_000);
    let incident: any;
    await waitFor(async () => ((incident = (await errorIncidents(caller))[0]), incident !== undefined), {
      timeoutMs: 20_000,
      message: 'the read-failure incident',
    });
    t.like(incident, {
      source: 'rule_error',
      status: 'triggered',
      severity: 'critical',
      rule_id: null,
      current_value: null,
      rule_ids: [rule.id],
      escalation_policy_id: policyId,
    });
    t.regex(incident.title, /cannot be read$/);
    t.regex(incident.detail, /paused/);
    await waitFor(() => mailsTo(recipient, /Triggered: .*cannot be read/).length === 1, {
      timeoutMs: 20_000,
      message: 'the page',
    });
    await moreTicks(2);
    t.is((await errorIncidents(caller)).length, 1, 'one incident however many ticks fail');
    t.is(mailsTo(recipient, /Triggered: .*cannot be read/).length, 1, 'paged once');

    // When the cluster is resumed, the incident resolves by itself and the all-clear goes out.
    await pause(caller, false);
    await waitFor(async () => (await errorIncidents(caller))[0]?.status === 'resolved', {
      timeoutMs: 20_000,
      message: 'the incident resolved',
    });
    t.like((await errorIncidents(caller))[0], { id: incident.id, resolution_reason: 'auto' });
    await waitFor(() => mailsTo(recipient, /Resolved: .*cannot be read/).length === 1, {
      timeoutMs: 20_000,
      message: 'the all-clear',
    });
  },
);

test.serial('fifty rules on the paused cluster with one policy open one incident that lists them all', async (t) => {
  const caller = app.newTenant();
  const recipient = 'fifty@example.com';
  const policyId = await emailPolicy(caller, recipient);
  // Given fifty rules that never breach, on a cluster that reads fine…
  const rules = [];
  for (let i = 0; i < 50; i++) {
    rules.push(
      await created(caller, '/api/v1/alert-rules', {
        name: `Rule ${i}`,
        metric: i % 2 === 0 ? 'storage_utilization_pct' : 'queue_time_seconds',
        condition: 'gt',
        threshold: 1_000_000,
        evaluation_window_minutes: i % 3,
        severity: i === 7 ? 'high' : 'low',
        escalation_policy_id: policyId,
        error_for_minutes: 0,
      }),
    );
  }
  await moreTicks(2);
  // …when the cluster is paused…
  await pause(caller, true);
  let incidents: any[] = [];
  await waitFor(async () => ((incidents = await errorIncidents(caller)), incidents.length > 0), {
    timeoutMs: 20_000,
    message: 'the read-failure incident',
  });
  await moreTicks(2);
  // …then one incident opens for the cluster, listing the fifty rules at their highest severity, and one page goes out.
  incidents = await errorIncidents(caller);
  t.is(incidents.length, 1);
  t.like(incidents[0], { severity: 'high', status: 'triggered' });
  t.deepEqual([...incidents[0].rule_ids].sort(), rules.map((rule) => rule.id).sort());
  t.regex(incidents[0].detail, /50 rules cannot evaluate/);
  await waitFor(() => mailsTo(recipient, /Triggered: /).length === 1, { timeoutMs: 20_000, message: 'the page' });
  const all = (await app.request('GET', '/api/v1/incidents', { caller })).body.data as any[];
  t.is(all.length, 1, 'no incident of any rule of its own');
  await pause(caller, false);
  await waitFor(async () => (await errorIncidents(caller))[0]?.status === 'resolved', {
    timeoutMs: 20_000,
    message: 'resolved',
  });
});

test.serial('on_error ok or keep_last pages nobody for a paused cluster', async (t) => {
  const caller = app.newTenant();
  const policyId = await emailPolicy(caller, 'quiet@example.com');
  await pause(caller, true);
  for (const setting of ['ok', 'keep_last'] as const) {
    const rule = await created(caller, '/api/v1/alert-rules', {
      name: `Quiet ${setting}`,
      metric: 'storage_utilization_pct',
      condition: 'gte',
      threshold: 0,
      evaluation_window_minutes: 0,
      severity: 'critical',
      escalation_policy_id: policyId,
      on_error: setting,
      error_for_minutes: 0,
    });
    t.is(rule.on_error, setting);
  }
  await moreTicks(3);
  t.deepEqual(await errorIncidents(caller), []);
  t.is(mailsTo('quiet@example.com', /Triggered/).length, 0);
  await pause(caller, false);
});
