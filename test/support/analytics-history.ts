/**
 * A scripted incident history for the analytics tests and the worked example of docs/analytics.md:
 * two rules, five incidents in the two weeks around Europe/Berlin's spring-forward (2026-03-29),
 * one incident before the range, pages through a Berlin schedule and straight to a user, a failed
 * page and two stage-2 escalations. The events are appended as the platform appends them (one
 * `incident-<id>` stream each); users and the schedule are created through the API.
 */
import { randomUUID } from 'node:crypto';
import type { RunningPlatform } from '../../src/platform.js';
import type { Caller, TestApp } from './test-app.js';

export const HISTORY_RANGE = { since: '2026-03-23T00:00:00Z', until: '2026-04-06T00:00:00Z' };

/** The Berlin schedule: alice always, bob by override on the night of the change (20:00 CET → 06:00 CEST: 9 hours). */
const schedule = (alice: string, bob: string) => ({
  name: 'Warehouse primary',
  timezone: 'Europe/Berlin',
  layers: [{ user_ids: [alice], rotation_type: 'weekly', start_time: '2026-03-16T09:00:00' }],
  overrides: [
    { user_id: bob, start: '2026-03-28T20:00:00', end: '2026-03-29T06:00:00', reason: 'the night of the change' },
  ],
});

interface Page {
  to: string;
  via: 'schedule' | 'user';
  medium: 'email' | 'sms';
  at: string;
  ok?: boolean;
  stage?: number;
}
interface Script {
  rule: 'disk' | 'slow';
  severity: 'critical' | 'medium';
  clusterId: string | null;
  triggeredAt: string;
  stages: { stage: number; at: string }[];
  pages: Page[];
  ack?: { by: string; at: string };
  resolve?: { at: string; reason: 'auto' | 'manual' | 'rule_disabled' };
}

/** Hand-written: every number of the tests' tables follows from these lines. */
const SCRIPTS = (alice: string, bob: string): Script[] => [
  // Before the range: counts nowhere.
  {
    rule: 'disk',
    severity: 'critical',
    clusterId: 'c1',
    triggeredAt: '2026-03-20T10:00:00Z',
    stages: [{ stage: 1, at: '2026-03-20T10:00:00Z' }],
    pages: [{ to: alice, via: 'schedule', medium: 'email', at: '2026-03-20T10:00:05Z' }],
    resolve: { at: '2026-03-20T10:02:00Z', reason: 'auto' },
  },
  // I1: Saturday 22:30 in Berlin (CET), bob on call by override: a night page; acknowledged after 300 s, resolved by hand after 3600 s.
  {
    rule: 'disk',
    severity: 'critical',
    clusterId: 'c1',
    triggeredAt: '2026-03-28T21:30:00Z',
    stages: [{ stage: 1, at: '2026-03-28T21:30:00Z' }],
    pages: [{ to: bob, via: 'schedule', medium: 'email', at: '2026-03-28T21:30:05Z' }],
    ack: { by: `user:${bob}`, at: '2026-03-28T21:35:00Z' },
    resolve: { at: '2026-03-28T22:30:00Z', reason: 'manual' },
  },
  // I2: 07:30 in Berlin after the change (06:30 before it would have been night): not a night page; auto-resolved after 180 s (flapping).
  {
    rule: 'disk',
    severity: 'critical',
    clusterId: 'c1',
    triggeredAt: '2026-03-29T05:30:00Z',
    stages: [{ stage: 1, at: '2026-03-29T05:30:00Z' }],
    pages: [{ to: alice, via: 'schedule', medium: 'sms', at: '2026-03-29T05:30:10Z' }],
    resolve: { at: '2026-03-29T05:33:00Z', reason: 'auto' },
  },
  // I3: bob named directly (UTC): the email fails, stage 2 pages by SMS; acknowledged after 1200 s, auto-resolved after 2400 s.
  {
    rule: 'disk',
    severity: 'critical',
    clusterId: 'c1',
    triggeredAt: '2026-03-30T10:00:00Z',
    stages: [
      { stage: 1, at: '2026-03-30T10:00:00Z' },
      { stage: 2, at: '2026-03-30T10:15:00Z' },
    ],
    pages: [
      { to: bob, via: 'user', medium: 'email', at: '2026-03-30T10:00:05Z', ok: false },
      { to: bob, via: 'user', medium: 'sms', at: '2026-03-30T10:15:05Z', stage: 2 },
    ],
    ack: { by: `user:${bob}`, at: '2026-03-30T10:20:00Z' },
    resolve: { at: '2026-03-30T10:40:00Z', reason: 'auto' },
  },
  // I4: 23:00 UTC (bob, night in UTC), stage 2 at 01:10 in Berlin (alice, night); resolved as the rule is disabled after 1800 s.
  {
    rule: 'slow',
    severity: 'medium',
    clusterId: null,
    triggeredAt: '2026-04-02T23:00:00Z',
    stages: [
      { stage: 1, at: '2026-04-02T23:00:00Z' },
      { stage: 2, at: '2026-04-02T23:10:00Z' },
    ],
    pages: [
      { to: bob, via: 'user', medium: 'email', at: '2026-04-02T23:00:05Z' },
      { to: alice, via: 'schedule', medium: 'email', at: '2026-04-02T23:10:05Z', stage: 2 },
    ],
    resolve: { at: '2026-04-02T23:30:00Z', reason: 'rule_disabled' },
  },
  // I5: Sunday afternoon, still open.
  {
    rule: 'slow',
    severity: 'medium',
    clusterId: null,
    triggeredAt: '2026-04-05T12:00:00Z',
    stages: [{ stage: 1, at: '2026-04-05T12:00:00Z' }],
    pages: [{ to: alice, via: 'schedule', medium: 'email', at: '2026-04-05T12:00:05Z' }],
  },
];

export interface History {
  alice: string;
  bob: string;
  scheduleId: string;
  rules: { disk: string; slow: string };
  policyId: string;
}

/** Where the history goes: a tenant, a way to create its users and schedule, and the platform's log. */
export interface HistoryTarget {
  tenantId: string;
  envId: string;
  /** POSTs through the API; answers the created resource (throws otherwise). */
  create(path: string, body: unknown): Promise<{ id: string }>;
  platform: RunningPlatform;
}

/** The target of a test app's caller. */
export const appTarget = (app: TestApp, caller: Caller): HistoryTarget => ({
  tenantId: caller.tenantId,
  envId: caller.envId,
  platform: app.platform,
  async create(path, body) {
    const answer = await app.request('POST', path, { caller, body });
    if (answer.status !== 201) throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.data as { id: string };
  },
});

/** Appends the history to the target's tenant and waits until the read models hold it (the rules named as given, by default `disk full` and `slow queries`). */
export async function scriptHistory(
  target: HistoryTarget,
  ruleNames: { disk: string; slow: string } = { disk: 'disk full', slow: 'slow queries' },
): Promise<History> {
  const newUser = async (name: string) =>
    (await target.create('/api/v1/users', { email: `${name}-${randomUUID()}@example.com`, name })).id;
  const alice = await newUser('alice');
  const bob = await newUser('bob');
  const scheduleId = (await target.create('/api/v1/schedules', schedule(alice, bob))).id;
  const rules = { disk: randomUUID(), slow: randomUUID() };
  const policyId = randomUUID();
  const metadata = (at: string) => ({
    tenantId: target.tenantId,
    actor: 'system',
    correlationId: randomUUID(),
    causationId: randomUUID(),
    occurredAt: at,
  });
  const stageTargets = [
    {
      stageOrder: 1,
      delayMinutes: 0,
      targets: [{ type: 'schedule' as const, id: scheduleId, channels: ['email' as const] }],
    },
    { stageOrder: 2, delayMinutes: 10, targets: [{ type: 'user' as const, id: bob, channels: ['sms' as const] }] },
  ];
  let position = 0n;
  let ordinal = 0;
  for (const script of SCRIPTS(alice, bob)) {
    const incidentId = randomUUID();
    const event = (type: string, at: string, data: Record<string, unknown>) => ({
      type,
      data: { incidentId, ...data },
      metadata: metadata(at),
    });
    const events = [
      event('IncidentTriggered', script.triggeredAt, {
        ruleId: rules[script.rule],
        ruleName: ruleNames[script.rule],
        ordinal: ++ordinal,
        currentValue: 95,
        severity: script.severity,
        metric: 'disk_used_pct',
        condition: 'gt',
        threshold: 90,
        envId: target.envId,
        clusterId: script.clusterId,
        escalationPolicyId: policyId,
        triggeredAt: script.triggeredAt,
      }),
      // The plan holds only the stages the script fires, and the fired stages name no recipients (the
      // deliveries do): the running platform's escalation manager then has nothing left to page, retry or all-clear.
      event('EscalationStarted', script.triggeredAt, {
        policyId,
        policyName: 'primary',
        stages: stageTargets.filter((s) => script.stages.some((fired) => fired.stage === s.stageOrder)),
        repeatIntervalMinutes: 0,
        startedAt: script.triggeredAt,
      }),
    ];
    for (const stage of script.stages) {
      const pages = script.pages.filter((page) => (page.stage ?? 1) === stage.stage);
      events.push(
        event('EscalationStageFired', stage.at, {
          stageOrder: stage.stage,
          cycle: 0,
          dueAt: stage.at,
          firedAt: stage.at,
          recipients: [],
        }),
      );
      for (const page of pages) {
        const failed = page.ok === false;
        events.push(
          event(failed ? 'NotificationFailed' : 'NotificationDelivered', page.at, {
            kind: 'stage',
            stageOrder: stage.stage,
            cycle: 0,
            recipientKey: `user:${page.to}`,
            via: { type: page.via, id: page.via === 'schedule' ? scheduleId : page.to },
            medium: page.medium,
            target: 'a***@example.com',
            idempotencyKey: `${incidentId}:stage:${stage.stage}:0:user:${page.to}:${page.medium}`,
            statusCode: failed ? 550 : 250,
            latencyMs: 12,
            at: page.at,
            ...(failed ? { error: { kind: 'rejected', message: 'mailbox unavailable' } } : {}),
          }),
        );
      }
    }
    if (script.ack) events.push(event('IncidentAcknowledged', script.ack.at, { by: script.ack.by, at: script.ack.at }));
    if (script.resolve) {
      const by = script.resolve.reason === 'manual' ? `user:${bob}` : 'system';
      events.push(
        event('IncidentResolved', script.resolve.at, {
          by,
          at: script.resolve.at,
          reason: script.resolve.reason,
          note: null,
          value: null,
        }),
      );
    }
    ({ position } = await target.platform.eventStore.append(`incident-${incidentId}`, events, {
      expectedRevision: 'no_stream',
    }));
  }
  if (!(await target.platform.runner.waitFor(position, 10_000)))
    throw new Error('the read models did not catch up with the history');
  return { alice, bob, scheduleId, rules, policyId };
}
