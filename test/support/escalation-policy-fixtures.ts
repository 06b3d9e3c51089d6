/** Shared request bodies of the escalation-policy HTTP tests. */
import { randomUUID } from 'node:crypto';

export const POLICIES = '/api/v1/escalation-policies';
// Schedules do not exist yet, so any UUID is a valid schedule target.
export const onCall = { type: 'schedule', id: randomUUID(), channels: ['sms', 'email'] };
export const policy = { name: 'Warehouse on-call', stages: [{ stage_order: 1, delay_minutes: 0, targets: [onCall] }] };
export const stage = (stage_order: number, delay_minutes: number, targets: unknown[] = [onCall]) => ({ stage_order, delay_minutes, targets });
/** A one-stage policy with this single target. */
export const withTarget = (target: unknown) => ({ ...policy, stages: [stage(1, 0, [target])] });
