/**
 * Incidents whose source is not one rule's condition (src/process/subject-incidents.ts): one open
 * incident per subject, opened once however often it is asked for, resolved by its source, the
 * next one a new incident; listed and filtered by source, paged through the policy like any other,
 * and counted by source in analytics.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';
import { chatPolicy } from './support/escalation-policy-fixtures.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

const policyOf = async (caller: Caller) => (await chatPolicy(app, caller, 'Data platform')).policyId;

const heartbeatIncident = (policyId: string, subject: string) => ({
  source: 'heartbeat' as const,
  subject,
  title: 'Nightly load did not check in',
  detail: 'no ping for 70 minutes (expected every 60, grace 5)',
  severity: 'high' as const,
  escalationPolicyId: policyId,
  envId: null,
  clusterId: null,
});

const cause = (caller: Caller) => ({ tenantId: caller.tenantId, actor: 'system:test', correlationId: randomUUID() });

test('a subject is opened once, resolved by its source, and its next incident is a new one', async (t) => {
  const caller = app.newTenant();
  const policyId = await policyOf(caller);
  const subjects = app.platform.composition.alerting.subjectIncidents;
  const subject = `heartbeat:${randomUUID()}`;

  // Given a subject with no incident, when its source asks twice (two instances, or a retry)…
  const [first, second] = await Promise.all([
    subjects.open(cause(caller), heartbeatIncident(policyId, subject)),
    subjects.open(cause(caller), heartbeatIncident(policyId, subject)),
  ]);
  // …then one incident exists and exactly one of the two calls opened it.
  t.is(first.incidentId, second.incidentId);
  t.deepEqual([first.opened, second.opened].sort(), [false, true]);
  const again = await subjects.open(cause(caller), heartbeatIncident(policyId, subject));
  t.deepEqual(again, { incidentId: first.incidentId, opened: false });

  const shown = (await app.request('GET', `/api/v1/incidents/${first.incidentId}`, { caller })).body.data;
  t.like(shown, {
    source: 'heartbeat',
    title: 'Nightly load did not check in',
    detail: 'no ping for 70 minutes (expected every 60, grace 5)',
    rule_id: null,
    rule_name: null,
    rule_ids: [],
    current_value: null,
    metric: null,
    condition: null,
    threshold: null,
    env_id: null,
    status: 'triggered',
    severity: 'high',
    escalation_policy_id: policyId,
    ordinal: 1,
  });
  t.false('subject' in shown, 'the subject key is internal');

  // It escalates like any other incident: stage 1 fires for the policy's channel.
  await waitFor(
    async () => {
      const incident = (await app.request('GET', `/api/v1/incidents/${first.incidentId}`, { caller })).body.data;
      return incident.escalation.current_stage?.stage_order === 1 && incident.escalation.policy_name !== null;
    },
    { timeoutMs: 30_000, message: 'stage 1 fired' },
  );

  // When the source says all is well, the incident resolves (reason auto) with the note given…
  t.is(await subjects.resolve(cause(caller), subject, 'pinged again'), first.incidentId);
  t.is(await subjects.resolve(cause(caller), subject), null, 'nothing open: nothing to resolve');
  const resolved = (await app.request('GET', `/api/v1/incidents/${first.incidentId}`, { caller })).body.data;
  t.like(resolved, { status: 'resolved', resolution_reason: 'auto', resolution_note: 'pinged again' });

  // …and the next time it is opened, it is a new incident, the subject's second.
  const next = await subjects.open(cause(caller), heartbeatIncident(policyId, subject));
  t.true(next.opened);
  t.not(next.incidentId, first.incidentId);
  t.is((await app.request('GET', `/api/v1/incidents/${next.incidentId}`, { caller })).body.data.ordinal, 2);
});

test('incidents are listed by source, and analytics count them by source', async (t) => {
  const caller = app.newTenant();
  const policyId = await policyOf(caller);
  const subjects = app.platform.composition.alerting.subjectIncidents;
  await subjects.open(cause(caller), heartbeatIncident(policyId, `heartbeat:${randomUUID()}`));
  await subjects.open(cause(caller), {
    ...heartbeatIncident(policyId, `platform:evaluator:${randomUUID()}`),
    source: 'platform',
    title: 'The evaluator has not ticked for 3 intervals',
  });

  const bySource = async (source: string) =>
    (await app.request('GET', `/api/v1/incidents?source=${source}`, { caller })).body.data.map((i: any) => i.source);
  t.deepEqual(await bySource('heartbeat'), ['heartbeat']);
  t.deepEqual(await bySource('platform'), ['platform']);
  t.deepEqual(await bySource('rule'), []);
  const refused = await app.request('GET', '/api/v1/incidents?source=cron', { caller });
  t.is(refused.status, 400);
  t.is(refused.headers.get('content-type'), 'application/problem+json');

  let analytics: any[] = [];
  await waitFor(
    async () => {
      const answer = await app.request('GET', '/api/v1/analytics/incidents?group_by=source', { caller });
      analytics = answer.body.data?.groups ?? [];
      return analytics.length === 2;
    },
    { timeoutMs: 30_000, message: 'analytics group both sources' },
  );
  t.deepEqual(
    analytics.map((g: any) => [g.key, g.opened]),
    [
      ['heartbeat', 1],
      ['platform', 1],
    ],
  );
});
