/**
 * One convention across the views: an unset optional string is null, never "" (role and group
 * descriptions used to be ""), and every list pages by 50 unless asked otherwise.
 */
import test from 'ava';
import { alertRuleView } from '../queries/alert-rules.js';
import { channelView } from '../queries/channels.js';
import { escalationPolicyView } from '../queries/escalation-policies.js';
import { groupView } from '../queries/groups.js';
import { incidentView } from '../queries/incidents.js';
import { initialEscalation } from '../src/events/escalation.js';
import { roleView } from '../queries/roles.js';
import { tenantDefaultsView } from '../queries/tenant-defaults.js';
import { userView } from '../queries/users.js';
import { DEFAULT_PAGE_SIZE } from '../src/http/pagination.js';
import { startTestApp } from './support/test-app.js';

const at = '2026-01-01T00:00:00.000Z';
const id = '00000000-0000-4000-8000-000000000001';

/** Each view, given a document whose optional strings were stored as "" (or are missing). */
const VIEWS: [string, () => unknown][] = [
  [
    'role',
    () =>
      roleView({
        id,
        tenantId: id,
        name: 'r',
        description: '',
        permissions: {},
        createdAt: at,
        updatedAt: at,
        revision: 0,
      } as never),
  ],
  [
    'group',
    () =>
      groupView({
        id,
        tenantId: id,
        name: 'g',
        description: '',
        permissions: {},
        memberIds: [],
        createdAt: at,
        updatedAt: at,
        revision: 0,
      } as never),
  ],
  [
    'alert rule',
    () =>
      alertRuleView({
        id,
        tenantId: id,
        envId: id,
        name: 'a',
        description: '',
        metric: 'm',
        condition: 'gt',
        threshold: 1,
        evaluationWindowMinutes: 5,
        severity: 'high',
        escalationPolicyId: id,
        clusterId: '',
        isEnabled: true,
        activeIncidentId: null,
        createdAt: at,
        updatedAt: at,
      } as never),
  ],
  [
    'escalation policy',
    () =>
      escalationPolicyView({
        id,
        tenantId: id,
        name: 'p',
        description: '',
        stages: [],
        repeatIntervalMinutes: 0,
        createdAt: at,
        updatedAt: at,
      } as never),
  ],
  [
    'incident',
    () =>
      incidentView({
        id,
        tenantId: id,
        revision: 0,
        rule_id: id,
        rule_name: 'r',
        status: 'resolved',
        severity: 'high',
        metric: 'm',
        condition: 'gt',
        threshold: 1,
        env_id: id,
        cluster_id: '',
        escalation_policy_id: id,
        triggered_at: at,
        acknowledged_at: null,
        acknowledged_by: null,
        resolved_at: at,
        resolved_by: id,
        resolution_reason: 'manual',
        resolution_note: '',
        resolution_value: null,
        notes: [],
        escalation: initialEscalation(),
        next_escalation_at: null,
      } as never),
  ],
  [
    'user',
    () =>
      userView({
        id,
        tenantId: id,
        email: 'u@example.com',
        name: 'u',
        roleId: '',
        groupIds: [],
        createdAt: at,
        lastLogin: null,
        isActive: true,
        invitationStatus: 'pending',
      } as never),
  ],
  [
    'channel',
    () =>
      channelView({
        id,
        tenantId: id,
        name: 'c',
        type: 'email',
        config: { recipients: ['u@example.com'] },
        createdAt: at,
        updatedAt: at,
      } as never),
  ],
  ['tenant defaults', () => tenantDefaultsView(null)],
];

/** JSON pointers of every "" and every undefined in a view. */
function emptyStrings(value: unknown, path = ''): string[] {
  if (value === '' || value === undefined) return [path];
  if (Array.isArray(value)) return value.flatMap((item, i) => emptyStrings(item, `${path}/${i}`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => emptyStrings(item, `${path}/${key}`));
  return [];
}

for (const [name, view] of VIEWS) {
  test(`the ${name} view shows unset optional strings as null`, (t) => {
    t.deepEqual(emptyStrings(view()), []);
  });
}

test('every list pages by 50 by default, alert-rule history too', async (t) => {
  t.is(DEFAULT_PAGE_SIZE, 50);
  const app = await startTestApp();
  try {
    const caller = app.newTenant();
    const channel = await app.request('POST', '/notification-channels', {
      caller,
      body: { name: 'c', type: 'email', config: { recipients: ['c@example.com'], subject_template: 's' } },
    });
    const policy = await app.request('POST', '/api/v1/escalation-policies', {
      caller,
      body: {
        name: 'p',
        stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.body.data?.id }] }],
      },
    });
    const rule = await app.request('POST', '/api/v1/alert-rules', {
      caller,
      body: {
        escalation_policy_id: policy.body.data?.id,
        name: 'r',
        metric: 'queue_time_seconds',
        condition: 'gt',
        threshold: 30,
        evaluation_window_minutes: 5,
        severity: 'high',
      },
    });
    const lists = [
      '/notification-channels',
      '/api/v1/escalation-policies',
      '/api/v1/alert-rules',
      '/api/v1/incidents',
      '/users',
      '/api/v1/roles',
      '/api/v1/groups',
    ];
    if (rule.status === 201) lists.push(`/api/v1/alert-rules/${rule.body.data.id}/history`);
    else t.fail(`rule: ${rule.status} ${JSON.stringify(rule.body)}`);
    for (const path of lists) {
      const response = await app.request('GET', path, { caller });
      t.is(response.status, 200, path);
      t.is(response.body.page?.limit, 50, path);
    }
    const role = await app.request('POST', '/api/v1/roles', {
      caller,
      body: { name: 'no description', permissions: {} },
    });
    t.is(role.body.data.description, null, 'a role created without a description answers null');
  } finally {
    await app.close();
  }
});
