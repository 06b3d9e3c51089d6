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

/**
 * A chat channel (a webhook nobody answers: deliveries fail, which these tests do not read) and a
 * one-stage policy paging it at once: what a test needs when it only asks that something pages.
 */
export async function chatPolicy(
  app: TestApp,
  caller: Caller,
  name = 'DBA',
): Promise<{ policyId: string; channelId: string }> {
  const channel = await app.request('POST', '/api/v1/notification-channels', {
    caller,
    body: { name: 'ops', type: 'chat', config: { webhook_url: 'https://chat.example/hook', channel_name: '#ops' } },
  });
  if (channel.status !== 201) throw new Error(`channel: ${channel.status} ${JSON.stringify(channel.body)}`);
  const policy = await app.request('POST', POLICIES, {
    caller,
    body: {
      name,
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.body.data.id }] }],
    },
  });
  if (policy.status !== 201) throw new Error(`policy: ${policy.status} ${JSON.stringify(policy.body)}`);
  return { policyId: policy.body.data.id, channelId: channel.body.data.id };
}
