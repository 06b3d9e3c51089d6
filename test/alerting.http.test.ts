/**
 * Alert rules, the evaluator and incidents end to end on the simulated warehouse, with the
 * evaluation interval set to 1 s. Waits are on conditions with deadlines, never fixed sleeps.
 */
import test from 'ava';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { connectSse } from './support/sse-client.js';
import { waitFor } from './support/wait-for.js';
import { simulatedClusters } from '../src/gateways/warehouse/simulated/fleet.js';
import { chatPolicy } from './support/escalation-policy-fixtures.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { ALERT_EVALUATION_INTERVAL_SECONDS: '1', SSE_HEARTBEAT_SECONDS: '1' } });
});
test.after.always(async () => app?.close());

const policyFor = async (caller: Caller) => (await chatPolicy(app, caller)).policyId;

const pin = (caller: Caller, metric: string, value: number) =>
  app.request('POST', '/api/v1/simulator/metrics', { caller, body: { metric, value, duration_seconds: 3600 } });

const incidentsOf = async (caller: Caller, ruleId: string) =>
  (await app.request('GET', `/api/v1/incidents?rule_id=${ruleId}`, { caller })).body.data as any[];

async function queueRule(caller: Caller, extra: Record<string, unknown> = {}) {
  const created = await app.request('POST', '/api/v1/alert-rules', {
    caller,
    // Window 0: trigger on the first breaching evaluation (a window is minutes of persistence).
    body: {
      name: 'Queue wait',
      metric: 'queue_time_seconds',
      condition: 'gt',
      threshold: 30,
      evaluation_window_minutes: 0,
      severity: 'high',
      escalation_policy_id: await policyFor(caller),
      ...extra,
    },
  });
  if (created.status !== 201) throw new Error(`rule: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data;
}

test.serial(
  'a pinned metric over the threshold triggers exactly one incident, which resolves automatically when it clears',
  async (t) => {
    const caller = app.newTenant();
    t.is((await pin(caller, 'queue_time_seconds', 45)).status, 200);
    const rule = await queueRule(caller);
    await waitFor(async () => (await incidentsOf(caller, rule.id)).length > 0, {
      timeoutMs: 5000,
      message: 'an incident within two intervals',
    });
    const [incident] = await incidentsOf(caller, rule.id);
    t.like(incident, {
      rule_id: rule.id,
      current_value: 45,
      severity: 'high',
      status: 'triggered',
      metric: 'queue_time_seconds',
      threshold: 30,
    });

    // Further ticks with the condition still met create no duplicate.
    const history = async () =>
      (await app.request('GET', `/api/v1/alert-rules/${rule.id}/history`, { caller })).body.data as any[];
    await waitFor(async () => (await history()).some((h) => h.outcome === 'unchanged'), {
      timeoutMs: 6000,
      message: 'the tick after the trigger',
    });
    await twoMoreTicks();
    t.is((await incidentsOf(caller, rule.id)).length, 1);
    t.is(
      (await history()).filter((h) => h.outcome === 'unchanged').length,
      1,
      'unchanged evaluations after the first are not recorded',
    );

    await pin(caller, 'queue_time_seconds', 10);
    await waitFor(async () => (await incidentsOf(caller, rule.id))[0].status === 'resolved', {
      timeoutMs: 5000,
      message: 'automatic resolution',
    });
    // The evaluator resolves the incident first and records its evaluation after: wait for that record too.
    await waitFor(async () => (await history()).some((h) => h.outcome === 'resolved'), {
      timeoutMs: 5000,
      message: 'the resolving evaluation recorded',
    });
    const events = await app.request('GET', `/api/v1/incidents/${incident.id}/events`, { caller });
    t.is(events.status, 200);
    const own = events.body.data.filter((e: any) => e.type.startsWith('Incident'));
    t.deepEqual(
      own.map((e: any) => [e.type, e.actor]),
      [
        ['IncidentTriggered', 'system:evaluator'],
        ['IncidentResolved', 'system:evaluator'],
      ],
    );
    t.like(own[1].data, { reason: 'auto', value: 10 });
    // The escalation's story is on the same stream: started, stage 1 fired at once, the delivery's outcome.
    t.deepEqual(
      events.body.data
        .filter((e: any) => e.actor === 'system:escalation')
        .slice(0, 2)
        .map((e: any) => e.type),
      ['EscalationStarted', 'EscalationStageFired'],
    );

    const outcomes = (await history()).map((h) => h.outcome);
    t.true(['ok', 'resolved'].includes(outcomes[0]), 'the newest evaluation is the clearing one or after it');
    t.true(outcomes.includes('resolved'));
    t.true(outcomes.includes('triggered'));
    const onlyTriggered = await app.request('GET', `/api/v1/alert-rules/${rule.id}/history?outcome=triggered`, {
      caller,
    });
    t.deepEqual(
      onlyTriggered.body.data.map((h: any) => h.outcome),
      ['triggered'],
    );
    t.like(onlyTriggered.body.data[0], { value: 45, condition_met: true, incident_id: incident.id });
  },
);

test.serial('acknowledge, notes, manual resolve, 409 on invalid transitions, and as_of', async (t) => {
  const caller = app.newTenant();
  await pin(caller, 'queue_time_seconds', 99);
  const rule = await queueRule(caller);
  await waitFor(async () => (await incidentsOf(caller, rule.id)).length > 0, { timeoutMs: 5000 });
  const [incident] = await incidentsOf(caller, rule.id);
  const between = new Date().toISOString();
  const read = await app.request('GET', `/api/v1/incidents/${incident.id}`, { caller });
  t.is(read.headers.get('etag'), null, 'as the README says: incidents answer no ETag, their actions take no If-Match');

  const acked = await app.request('POST', `/api/v1/incidents/${incident.id}/acknowledge`, { caller, body: {} });
  t.is(acked.status, 200);
  t.is(acked.body.data.status, 'acknowledged');
  t.is(acked.body.data.acknowledged_by, caller.userId);
  const note = await app.request('POST', `/api/v1/incidents/${incident.id}/notes`, {
    caller,
    body: { text: 'looking at WLM queue 3' },
  });
  t.is(note.status, 201);
  t.is(note.body.data.notes[0].text, 'looking at WLM queue 3');
  const resolved = await app.request('POST', `/api/v1/incidents/${incident.id}/resolve`, {
    caller,
    body: { note: 'killed the runaway query' },
  });
  t.is(resolved.status, 200);
  t.like(resolved.body.data, {
    status: 'resolved',
    resolution_reason: 'manual',
    resolution_note: 'killed the runaway query',
  });

  const again = await app.request('POST', `/api/v1/incidents/${incident.id}/acknowledge`, { caller, body: {} });
  t.is(again.status, 409);
  t.is(again.body.current_status, 'resolved');
  t.is((await app.request('POST', `/api/v1/incidents/${incident.id}/resolve`, { caller, body: {} })).status, 409);
  t.is(
    (await app.request('POST', `/api/v1/incidents/${incident.id}/notes`, { caller, body: { text: '' } })).status,
    400,
  );

  const asOf = await app.request('GET', `/api/v1/incidents/${incident.id}?as_of=${encodeURIComponent(between)}`, {
    caller,
  });
  t.is(asOf.status, 200);
  t.is(asOf.body.data.status, 'triggered');
  t.is(
    (await app.request('GET', `/api/v1/incidents/${incident.id}?as_of=2000-01-01T00:00:00Z`, { caller })).status,
    404,
  );
  t.is((await app.request('GET', `/api/v1/incidents/${incident.id}?as_of=yesterday`, { caller })).status, 400);
  const stranger = app.newTenant();
  t.is((await app.request('GET', `/api/v1/incidents/${incident.id}`, { caller: stranger })).status, 404);
  t.is((await app.request('GET', `/api/v1/incidents/${incident.id}/events`, { caller: stranger })).status, 404);
  t.is(
    (await app.request('POST', `/api/v1/incidents/${incident.id}/acknowledge`, { caller: stranger, body: {} })).status,
    404,
  );
});

test.serial('two evaluators racing never create two active incidents', async (t) => {
  const caller = app.newTenant();
  await pin(caller, 'queue_time_seconds', 50);
  const rules = [];
  for (let i = 0; i < 5; i++) rules.push(await queueRule(caller, { is_enabled: false, name: `race ${i}` }));
  const second = app.platform.composition.alerting.newEvaluator();
  for (const rule of rules)
    await app.request('PATCH', `/api/v1/alert-rules/${rule.id}`, { caller, body: { is_enabled: true } });
  await Promise.all([app.platform.evaluator.tick(), second.tick(), app.platform.evaluator.tick()]);
  for (const rule of rules) {
    const incidents = await incidentsOf(caller, rule.id);
    t.is(incidents.filter((i) => i.status !== 'resolved').length, 1, `rule ${rule.name}`);
  }
});

test.serial('a warehouse outage changes no incident and is recorded as an evaluation error', async (t) => {
  const caller = app.newTenant();
  await pin(caller, 'queue_time_seconds', 60);
  const rule = await queueRule(caller);
  await waitFor(async () => (await incidentsOf(caller, rule.id)).length > 0, { timeoutMs: 5000 });
  t.is((await app.request('POST', '/api/v1/simulator/cluster', { caller, body: { paused: true } })).status, 200);
  await pin(caller, 'queue_time_seconds', 1).catch(() => undefined);
  const history = async () =>
    (await app.request('GET', `/api/v1/alert-rules/${rule.id}/history?outcome=error`, { caller })).body.data as any[];
  await waitFor(async () => (await history()).length >= 1, { timeoutMs: 6000, message: 'an evaluation error' });
  await twoMoreTicks();
  t.is((await history()).length, 1, 'the same error again is not recorded again');
  t.regex((await history())[0].error, /paused/);
  t.is((await incidentsOf(caller, rule.id))[0].status, 'triggered');
  // The rule shows it is blind while its evaluations fail, and since when.
  const failing = (await app.request('GET', `/api/v1/alert-rules/${rule.id}`, { caller })).body.data;
  t.like(failing, { health: 'failing', failing_since: (await history()).at(-1).at });
  t.regex(failing.last_error, /paused/);
  const metricsText = (await app.request('GET', '/metrics')).body as string;
  t.regex(metricsText, /alert_rule_evaluation_errors_total\{reason="warehouse_unavailable"\} [1-9]/);
  await app.request('POST', '/api/v1/simulator/cluster', { caller, body: { paused: false } });
  await waitFor(
    async () => (await app.request('GET', `/api/v1/alert-rules/${rule.id}`, { caller })).body.data.health === 'ok',
    { timeoutMs: 6000, message: 'health back to ok' },
  );
  t.like((await app.request('GET', `/api/v1/alert-rules/${rule.id}`, { caller })).body.data, {
    last_error: null,
    failing_since: null,
  });
});

test.serial(
  'the SSE feed delivers a trigger live and resumes from Last-Event-ID without loss or duplicates',
  async (t) => {
    const caller = app.newTenant();
    const headers = { authorization: `Bearer ${app.token(caller)}` };
    const first = connectSse(`${app.url}/api/v1/incidents/stream`, headers);
    await waitFor(() => first.status() === 200, { timeoutMs: 3000 });
    await pin(caller, 'queue_time_seconds', 70);
    const rule = await queueRule(caller);
    await waitFor(() => first.events.some((e) => e.event === 'IncidentTriggered'), {
      timeoutMs: 6000,
      message: 'a live trigger',
    });
    const trigger = first.events.find((e) => e.event === 'IncidentTriggered')!;
    t.is(trigger.data.data.ruleId, rule.id);
    await waitFor(() => first.comments.includes('heartbeat'), { timeoutMs: 3000, message: 'a heartbeat' });
    await first.close();

    const incidentId = trigger.data.incident_id;
    await app.request('POST', `/api/v1/incidents/${incidentId}/notes`, { caller, body: { text: 'while away 1' } });
    await app.request('POST', `/api/v1/incidents/${incidentId}/acknowledge`, { caller, body: {} });
    const second = connectSse(`${app.url}/api/v1/incidents/stream`, { ...headers, 'last-event-id': trigger.id! });
    // The feed also carries the escalation's events (stage fired, deliveries); this test follows the incident's own.
    const incidentEvents = () => second.events.filter((e) => e.event?.startsWith('Incident'));
    await waitFor(() => incidentEvents().length >= 2, { timeoutMs: 5000, message: 'missed events replayed' });
    await app.request('POST', `/api/v1/incidents/${incidentId}/notes`, { caller, body: { text: 'live again' } });
    await waitFor(() => incidentEvents().length >= 3, { timeoutMs: 5000, message: 'a live event after the replay' });
    await second.close();
    t.deepEqual(
      incidentEvents().map((e) => e.event),
      ['IncidentNoteAdded', 'IncidentAcknowledged', 'IncidentNoteAdded'],
    );
    const ids = second.events.map((e) => BigInt(e.id!));
    t.true(ids.every((id, i) => i === 0 || id > ids[i - 1]!));
    t.true(ids[0]! > BigInt(trigger.id!));
    // Another tenant's stream sees none of it.
    await waitFor(() => app.platform.composition.alerting.hub.listenerCount() === 0, {
      timeoutMs: 3000,
      message: 'listeners released after disconnect',
    });
  },
);

test('rule validation: unknown metric lists the known ones, missing policy, bad window', async (t) => {
  const caller = app.newTenant();
  const policy = await policyFor(caller);
  const base = {
    name: 'r',
    metric: 'queue_time_seconds',
    condition: 'gt',
    threshold: 1,
    evaluation_window_minutes: 5,
    severity: 'low',
    escalation_policy_id: policy,
  };
  const unknown = await app.request('POST', '/api/v1/alert-rules', { caller, body: { ...base, metric: 'vibes' } });
  t.is(unknown.status, 400);
  t.regex(unknown.body.detail, /query_runtime_seconds/);
  const noPolicy = await app.request('POST', '/api/v1/alert-rules', {
    caller,
    body: { ...base, escalation_policy_id: '00000000-0000-4000-8000-000000000000' },
  });
  t.is(noPolicy.status, 400);
  for (const bad of [
    { evaluation_window_minutes: -1 },
    { evaluation_window_minutes: 1.5 },
    { evaluation_window_minutes: 1441 },
    { condition: 'ne' },
    { severity: 'urgent' },
    { threshold: 'high' },
    { extra: 1 },
  ]) {
    t.is(
      (await app.request('POST', '/api/v1/alert-rules', { caller, body: { ...base, ...bad } })).status,
      400,
      JSON.stringify(bad),
    );
  }
  t.deepEqual((await app.request('GET', '/api/v1/alert-rules', { caller })).body.data, []);
  const created = await app.request('POST', '/api/v1/alert-rules', { caller, body: base });
  t.is(created.status, 201);
  t.like(created.body, {
    success: true,
    data: { tenant_id: caller.tenantId, env_id: caller.envId, is_enabled: true, name: 'r' },
  });
  const patched = await app.request('PATCH', `/api/v1/alert-rules/${created.body.data.id}`, {
    caller,
    body: { is_enabled: false },
  });
  t.is(patched.body.data.is_enabled, false);
  t.is(patched.body.data.threshold, 1);
  const deleted = await app.request('DELETE', `/api/v1/alert-rules/${created.body.data.id}`, { caller });
  t.is(deleted.status, 200);
  t.is((await app.request('GET', `/api/v1/alert-rules/${created.body.data.id}`, { caller })).status, 404);
});

test.serial('deleting a rule with an active incident resolves it with reason rule_deleted', async (t) => {
  const caller = app.newTenant();
  await pin(caller, 'queue_time_seconds', 80);
  const rule = await queueRule(caller);
  await waitFor(async () => (await incidentsOf(caller, rule.id)).length > 0, { timeoutMs: 5000 });
  const deleted = await app.request('DELETE', `/api/v1/alert-rules/${rule.id}`, { caller });
  t.is(deleted.status, 200);
  const [incident] = await incidentsOf(caller, rule.id);
  t.is(deleted.body.data.resolved_incident_id, incident.id);
  t.like(incident, { status: 'resolved', resolution_reason: 'rule_deleted' });
});

test('an escalation policy used by an enabled rule cannot be deleted; once the rule is disabled it can', async (t) => {
  const caller = app.newTenant();
  const rule = await queueRule(caller, { is_enabled: true });
  const refused = await app.request('DELETE', `/api/v1/escalation-policies/${rule.escalation_policy_id}`, { caller });
  t.is(refused.status, 409);
  t.regex(refused.body.detail, /Queue wait/);
  t.deepEqual(refused.body.referenced_by, [{ id: rule.id, name: 'Queue wait' }], 'the shape every refused delete has');
  await app.request('PATCH', `/api/v1/alert-rules/${rule.id}`, { caller, body: { is_enabled: false } });
  t.is(
    (await app.request('DELETE', `/api/v1/escalation-policies/${rule.escalation_policy_id}`, { caller })).status,
    200,
  );
  // A disabled rule cannot be re-enabled onto a policy that no longer exists.
  t.is(
    (await app.request('PATCH', `/api/v1/alert-rules/${rule.id}`, { caller, body: { is_enabled: true } })).status,
    400,
  );
});

/** Waits until the evaluator has run two more ticks (evaluations that change nothing are not in the history). */
async function twoMoreTicks() {
  const ticks = await metricValue('evaluator_ticks_total');
  await waitFor(async () => (await metricValue('evaluator_ticks_total')) >= ticks + 2, {
    timeoutMs: 6000,
    message: 'two more ticks',
  });
}

/** The value of one series of /metrics (0 when absent). */
async function metricValue(series: string): Promise<number> {
  const text = (await app.request('GET', '/metrics')).body as string;
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

test.serial(
  'a rule with a window stays pending (pending_since on the rule) and triggers nothing before the window has passed',
  async (t) => {
    const caller = app.newTenant();
    await pin(caller, 'queue_time_seconds', 45);
    const rule = await queueRule(caller, { evaluation_window_minutes: 5 });
    const history = async () =>
      (await app.request('GET', `/api/v1/alert-rules/${rule.id}/history`, { caller })).body.data as any[];
    await waitFor(async () => (await history()).length >= 1, { timeoutMs: 6000, message: 'the first evaluation' });
    await twoMoreTicks();
    t.deepEqual(
      (await history()).map((h) => h.outcome),
      ['pending'],
      'the start of the pending run is recorded, not each pending tick',
    );
    const view = (await app.request('GET', `/api/v1/alert-rules/${rule.id}`, { caller })).body.data;
    t.is(view.pending_since, (await history()).at(-1).at, 'pending since the first breaching evaluation');
    t.deepEqual(await incidentsOf(caller, rule.id), []);
  },
);

test.serial(
  'disabling a rule resolves its open incident (rule_disabled); every resolution is counted with the incident severity',
  async (t) => {
    const caller = app.newTenant();
    await pin(caller, 'queue_time_seconds', 90);
    const disabledBefore = await metricValue('incidents_resolved_total{severity="critical",reason="rule_disabled"}');
    const manualBefore = await metricValue('incidents_resolved_total{severity="critical",reason="manual"}');
    const deletedBefore = await metricValue('incidents_resolved_total{severity="critical",reason="rule_deleted"}');

    const viaPatch = await queueRule(caller, { severity: 'critical', name: 'patched off' });
    const viaPut = await queueRule(caller, { severity: 'critical', name: 'put off' });
    const manual = await queueRule(caller, { severity: 'critical', name: 'manual' });
    const deleted = await queueRule(caller, { severity: 'critical', name: 'deleted' });
    for (const rule of [viaPatch, viaPut, manual, deleted]) {
      await waitFor(async () => (await incidentsOf(caller, rule.id)).length > 0, {
        timeoutMs: 5000,
        message: `incident of ${rule.name}`,
      });
    }
    // The severity is changed in the same edit: the counter keeps the incident's own severity.
    const patched = await app.request('PATCH', `/api/v1/alert-rules/${viaPatch.id}`, {
      caller,
      body: { is_enabled: false, severity: 'low' },
    });
    t.is(patched.status, 200);
    t.is(patched.body.data.active_incident_id, null);
    const {
      id: _id,
      tenant_id: _t,
      env_id: _e,
      active_incident_id: _a,
      pending_since: _p,
      rearmed: _r,
      health: _h,
      last_error: _l,
      failing_since: _f,
      created_at: _c,
      updated_at: _u,
      ...body
    } = viaPut;
    t.is(
      (await app.request('PUT', `/api/v1/alert-rules/${viaPut.id}`, { caller, body: { ...body, is_enabled: false } }))
        .status,
      200,
    );
    for (const rule of [viaPatch, viaPut]) {
      t.like((await incidentsOf(caller, rule.id))[0], {
        status: 'resolved',
        resolution_reason: 'rule_disabled',
        resolved_by: caller.userId,
      });
    }
    const [manualIncident] = await incidentsOf(caller, manual.id);
    t.is(
      (await app.request('POST', `/api/v1/incidents/${manualIncident.id}/resolve`, { caller, body: {} })).status,
      200,
    );
    t.is((await app.request('DELETE', `/api/v1/alert-rules/${deleted.id}`, { caller })).status, 200);

    t.is(await metricValue('incidents_resolved_total{severity="critical",reason="rule_disabled"}'), disabledBefore + 2);
    t.is(await metricValue('incidents_resolved_total{severity="critical",reason="manual"}'), manualBefore + 1);
    t.is(await metricValue('incidents_resolved_total{severity="critical",reason="rule_deleted"}'), deletedBefore + 1);

    // Manually resolved while the condition still holds: no new incident until it clears once.
    await waitFor(
      async () =>
        (
          await app.request('GET', `/api/v1/alert-rules/${manual.id}/history?outcome=unchanged`, { caller })
        ).body.data.some((h: any) => h.at > manualIncident.triggered_at),
      { timeoutMs: 6000, message: 'a tick after the resolve' },
    );
    t.is((await incidentsOf(caller, manual.id)).length, 1);
    t.is((await app.request('GET', `/api/v1/alert-rules/${manual.id}`, { caller })).body.data.rearmed, false);
  },
);

test('a cluster the environment does not have is refused on POST, PUT and PATCH; one it has is accepted', async (t) => {
  const caller = app.newTenant();
  const [cluster] = simulatedClusters(caller.envId);
  const base = {
    name: 'scoped',
    metric: 'queue_time_seconds',
    condition: 'gt',
    threshold: 1e9,
    evaluation_window_minutes: 5,
    severity: 'low',
    escalation_policy_id: await policyFor(caller),
  };
  const refused = await app.request('POST', '/api/v1/alert-rules', {
    caller,
    body: { ...base, cluster_id: 'rs-elsewhere-main' },
  });
  t.is(refused.status, 400);
  t.regex(refused.headers.get('content-type')!, /application\/problem\+json/);
  t.regex(refused.body.detail, new RegExp(cluster!.id));
  t.deepEqual((await app.request('GET', '/api/v1/alert-rules', { caller })).body.data, [], 'nothing was created');

  const created = await app.request('POST', '/api/v1/alert-rules', {
    caller,
    body: { ...base, cluster_id: cluster!.id },
  });
  t.is(created.status, 201);
  const id = created.body.data.id;
  t.is(
    (await app.request('PATCH', `/api/v1/alert-rules/${id}`, { caller, body: { cluster_id: 'rs-elsewhere-main' } }))
      .status,
    400,
  );
  t.is(
    (
      await app.request('PUT', `/api/v1/alert-rules/${id}`, {
        caller,
        body: { ...base, cluster_id: 'rs-elsewhere-main' },
      })
    ).status,
    400,
  );
  t.is(
    (await app.request('GET', `/api/v1/alert-rules/${id}`, { caller })).body.data.cluster_id,
    cluster!.id,
    'unchanged',
  );
});

test('a deleted rule keeps its evaluation history readable; the history page is 50 by default', async (t) => {
  const caller = app.newTenant();
  // Breaching and pending for an hour: its first evaluation is recorded (a quiet one waits for its hour).
  await pin(caller, 'queue_time_seconds', 80);
  const rule = await queueRule(caller, { evaluation_window_minutes: 60 });
  const history = (who: Caller) => app.request('GET', `/api/v1/alert-rules/${rule.id}/history`, { caller: who });
  await waitFor(async () => (await history(caller)).body.data.length > 0, {
    timeoutMs: 5000,
    message: 'an evaluation',
  });
  t.is((await history(caller)).body.page.limit, 50);
  t.is((await app.request('DELETE', `/api/v1/alert-rules/${rule.id}`, { caller })).status, 200);
  const afterDelete = await history(caller);
  t.is(afterDelete.status, 200);
  t.true(afterDelete.body.data.length > 0);
  t.is((await history(app.newTenant())).status, 404, "another tenant's rule");
  t.is(
    (await app.request('GET', '/api/v1/alert-rules/00000000-0000-4000-8000-000000000000/history', { caller })).status,
    404,
    'never existed',
  );
  t.is((await app.request('GET', `/api/v1/alert-rules/${rule.id}`, { caller })).status, 404, 'the rule itself is gone');
});
