/** Shared request bodies of the escalation-policy HTTP tests. */
import { randomUUID } from 'node:crypto';
import type { Caller, TestApp } from './test-app.js';

export const POLICIES = '/api/v1/escalation-policies';

/** Bodies around one on-call target; `onCall` names a schedule. */
export function policyBodies(onCall: { type: string; id: string; channels: string[] }) {
  const policy = { name: 'Warehouse on-call', stages: [{ stage_order: 1, delay_minutes: 0, targets: [onCall] }] };
  const stage = (stage_order: number, delay_minutes: number, targets: unknown[] = [onCall]) => ({
    stage_order,
    delay_minutes,
    targets,
  });
  /** A one-stage policy with this single target. */
  const withTarget = (target: unknown) => ({ ...policy, stages: [stage(1, 0, [target])] });
  return { onCall, policy, stage, withTarget };
}

/**
 * For bodies refused before any target is looked up (the schedule need not exist): an on-call
 * target naming a schedule id nobody has.
 */
export const { onCall, policy, stage, withTarget } = policyBodies({
  type: 'schedule',
  id: randomUUID(),
  channels: ['sms', 'email'],
});

/** A tenant with one user and a daily schedule of that user, and bodies whose on-call target is that schedule. */
export async function onCallTenant(app: TestApp, caller: Caller = app.newTenant()) {
  const user = await app.request('POST', '/users', {
    caller,
    body: { email: `oncall-${randomUUID()}@example.com`, name: 'On call' },
  });
  const schedule = await app.request('POST', '/schedules', {
    caller,
    body: {
      name: 'Primary',
      timezone: 'UTC',
      layers: [{ user_ids: [user.body.data.id], rotation_type: 'daily', start_time: '2026-01-01T09:00:00Z' }],
    },
  });
  if (schedule.status !== 201)
    throw new Error(`could not create the on-call schedule: ${JSON.stringify(schedule.body)}`);
  return { caller, ...policyBodies({ type: 'schedule', id: schedule.body.data.id, channels: ['sms', 'email'] }) };
}
