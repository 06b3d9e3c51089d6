/**
 * What the incident page says comes next in an incident's escalation
 * (src/dashboard/web/components/escalation-outlook.ts), table-driven: given the incident as the
 * API answers it and the escalation's plan, then the outlook; and the plan read from the history's
 * EscalationStarted or from the policy as it is now.
 */
import test from 'ava';
import type { EscalationPolicy, Incident, IncidentEvent } from '../src/dashboard/web/api/types.js';
import {
  escalationOutlook,
  planFromHistory,
  planFromPolicy,
  scheduleIds,
  type EscalationPlan,
  type Outlook,
} from '../src/dashboard/web/components/escalation-outlook.js';
import { describeResolution } from '../src/dashboard/web/components/resolution.js';
import { tabTitle } from '../src/dashboard/web/components/tab-title.js';

const SCHEDULE = '00000000-0000-4000-8000-0000000000a1';
const USER = '00000000-0000-4000-8000-0000000000b1';

const plan = (repeatIntervalMinutes: number): EscalationPlan => ({
  policyName: 'Two-step',
  stages: [
    { stageOrder: 2, delayMinutes: 5, targets: [{ type: 'schedule', id: SCHEDULE, channels: ['sms'] }] },
    { stageOrder: 1, delayMinutes: 0, targets: [{ type: 'user', id: USER, channels: ['email'] }] },
  ],
  repeatIntervalMinutes,
  source: 'started',
});

const notStarted: Incident['escalation'] = {
  status: 'not_started',
  cancel_reason: null,
  held_by_window_id: null,
  policy_name: null,
  current_stage: null,
  notified: [],
};

const incident = (over: Partial<Incident>): Incident => ({
  id: 'i',
  source: 'rule',
  title: 'Queue wait',
  detail: null,
  rule_ids: ['r'],
  rule_id: 'r',
  rule_name: 'Queue wait',
  status: 'triggered',
  severity: 'high',
  current_value: 95,
  metric: 'queue_time_seconds',
  condition: 'gt',
  threshold: 30,
  env_id: 'e',
  cluster_id: null,
  triggered_at: '2026-05-01T10:00:00.000Z',
  acknowledged_at: null,
  acknowledged_by: null,
  resolved_at: null,
  resolved_by: null,
  resolution_reason: null,
  resolution_note: null,
  resolution_value: null,
  notes: [],
  ordinal: 1,
  dedup_key: null,
  alert_count: 1,
  last_alert_at: '2026-03-01T12:00:00.000Z',
  sender: null,
  escalation_policy_id: 'p',
  next_escalation_at: null,
  escalation: { ...notStarted, status: 'running', policy_name: 'Two-step' },
  ...over,
});

const fired = (stage_order: number, cycle = 0) => ({
  ...notStarted,
  status: 'running' as const,
  policy_name: 'Two-step',
  current_stage: { stage_order, cycle, fired_at: '2026-05-01T10:00:00.000Z' },
});
const stage = (p: EscalationPlan, order: number) => p.stages.find((s) => s.stageOrder === order)!;

const cases: { name: string; given: Incident; plan: EscalationPlan | undefined; then: Outlook }[] = [
  {
    name: "stage 1 fired: stage 2 next, at the server's due time",
    given: incident({ escalation: fired(1), next_escalation_at: '2026-05-01T10:05:00.000Z' }),
    plan: plan(0),
    then: {
      kind: 'next',
      stage: stage(plan(0), 2),
      repeat: false,
      repeatIntervalMinutes: 0,
      dueAt: '2026-05-01T10:05:00.000Z',
    },
  },
  {
    name: 'the last stage fired and the policy repeats: stage 1 again',
    given: incident({ escalation: fired(2), next_escalation_at: '2026-05-01T10:15:00.000Z' }),
    plan: plan(10),
    then: {
      kind: 'next',
      stage: stage(plan(10), 1),
      repeat: true,
      repeatIntervalMinutes: 10,
      dueAt: '2026-05-01T10:15:00.000Z',
    },
  },
  {
    name: 'the last stage fired and the policy does not repeat',
    given: incident({ escalation: fired(2) }),
    plan: plan(0),
    then: { kind: 'finished', lastStage: 2 },
  },
  {
    name: 'the plan unknown (no history, no policy): the time alone',
    given: incident({ escalation: fired(1), next_escalation_at: '2026-05-01T10:05:00.000Z' }),
    plan: undefined,
    then: { kind: 'next', stage: null, repeat: false, repeatIntervalMinutes: 0, dueAt: '2026-05-01T10:05:00.000Z' },
  },
  {
    name: 'acknowledged',
    given: incident({
      status: 'acknowledged',
      escalation: { ...fired(1), status: 'cancelled', cancel_reason: 'acknowledged' },
    }),
    plan: plan(0),
    then: { kind: 'stopped', because: 'acknowledged' },
  },
  {
    name: 'resolved',
    given: incident({
      status: 'resolved',
      escalation: { ...fired(1), status: 'cancelled', cancel_reason: 'resolved' },
    }),
    plan: plan(0),
    then: { kind: 'stopped', because: 'resolved' },
  },
  {
    name: 'not started yet',
    given: incident({ escalation: { ...notStarted, status: 'pending' } }),
    plan: undefined,
    then: { kind: 'starting' },
  },
  {
    name: 'its policy was gone',
    given: incident({
      escalation: { ...notStarted, status: 'not_started' },
    }),
    plan: undefined,
    then: { kind: 'not_started' },
  },
];

for (const c of cases) {
  test(`outlook: ${c.name}`, (t) => {
    t.deepEqual(escalationOutlook(c.given, c.plan), c.then);
  });
}

test('the plan: the newest EscalationStarted of the history, else the policy as it is now; its schedules once each', (t) => {
  const started = (policyName: string): IncidentEvent => ({
    id: policyName,
    type: 'EscalationStarted',
    position: '1',
    occurred_at: '2026-05-01T10:00:00.000Z',
    actor: 'system:escalation',
    data: { policyName, stages: plan(0).stages, repeatIntervalMinutes: 0 },
  });
  t.is(planFromHistory([]), undefined);
  t.is(planFromHistory([started('old'), started('new')])!.policyName, 'new');
  const policy: EscalationPolicy = {
    id: 'p',
    name: 'Now',
    description: null,
    repeat_interval_minutes: 30,
    created_at: '',
    updated_at: '',
    stages: [
      {
        stage_order: 1,
        delay_minutes: 0,
        targets: [
          { type: 'schedule', id: SCHEDULE, channels: [] },
          { type: 'schedule', id: SCHEDULE, channels: ['sms'] },
        ],
      },
    ],
  };
  const fromPolicy = planFromPolicy(policy);
  t.like(fromPolicy, { policyName: 'Now', repeatIntervalMinutes: 30, source: 'policy' });
  t.deepEqual(scheduleIds(fromPolicy), [SCHEDULE]);
  t.deepEqual(scheduleIds(undefined), []);
});

test('who resolved an incident and why', (t) => {
  const who = (id: string | null | undefined) =>
    id === USER ? 'Ada Oncall' : id === 'system:evaluator' ? 'evaluator' : String(id);
  const resolved = (over: Partial<Incident>) =>
    incident({ status: 'resolved', resolved_at: '2026-05-01T10:30:00.000Z', ...over });
  t.is(
    describeResolution(
      resolved({ resolved_by: 'system:evaluator', resolution_reason: 'auto', resolution_value: 12.5 }),
      who,
    ),
    'auto-resolved by the evaluator (value 12.5)',
  );
  t.is(
    describeResolution(resolved({ resolved_by: USER, resolution_reason: 'manual', resolution_note: 'drained' }), who),
    'by Ada Oncall: “drained”',
  );
  t.is(
    describeResolution(resolved({ resolved_by: USER, resolution_reason: 'rule_disabled' }), who),
    'rule disabled by Ada Oncall',
  );
  t.is(
    describeResolution(resolved({ resolved_by: USER, resolution_reason: 'rule_deleted' }), who),
    'rule deleted by Ada Oncall',
  );
});

test("the tab title: the open incidents' count, the page, the product", (t) => {
  t.is(tabTitle('Alert rules', 3), '(3) Alert rules · warehouse-watch');
  t.is(tabTitle('Alert rules', 0), 'Alert rules · warehouse-watch');
  t.is(tabTitle('Sync', undefined), 'Sync · warehouse-watch');
  t.is(tabTitle(undefined, 2), '(2) warehouse-watch');
});
