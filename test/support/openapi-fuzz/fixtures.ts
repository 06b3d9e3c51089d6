/**
 * The resources the fuzz needs so that path ids exist (a user, a group member, a role, a group, a
 * channel, a schedule with an override, a policy, a rule and its incident from the simulator, a
 * sync run, a maintenance window, a heartbeat, an integration), created through the API with the built-in identity provider's development client;
 * and an example body per operation that these resources make acceptable.
 */
import { randomUUID } from 'node:crypto';
import type { RunningPlatform } from '../../../src/platform.js';
import { waitFor } from '../wait-for.js';

export interface Fixtures {
  token: string;
  /** The id to put in a path parameter of this path. */
  pathValue(path: string, name: string): string;
  /** A valid body for the operation (`undefined`: it takes none, or the schema alone suffices). */
  example(method: string, path: string): Record<string, unknown> | undefined;
}

const JOB_ID = 'wlm_queue_stats';

export async function createFixtures(platform: RunningPlatform, audience: string): Promise<Fixtures> {
  const client = platform.devClient!;
  const tokenAnswer = await fetch(`${platform.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      audience,
    }),
  });
  const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${platform.url}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as any;
    if (response.status >= 300)
      throw new Error(`fixture ${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer.data;
  };
  const unique = () => randomUUID().slice(0, 8);

  const user = await call('POST', '/users', { email: `fuzz-${unique()}@example.com`, name: 'Fuzz User' });
  const member = await call('POST', '/users', { email: `fuzz-${unique()}@example.com`, name: 'Fuzz Member' });
  const role = await call('POST', '/roles', { name: `fuzz role ${unique()}`, permissions: { 'audit:read': 'allow' } });
  const group = await call('POST', '/groups', { name: `fuzz group ${unique()}`, permissions: {} });
  await call('PUT', `/groups/${group.id}/members/${member.id}`);
  // The link-local metadata address is refused before any request: a test send answers at once.
  const channelBody = () => ({
    name: `fuzz hook ${unique()}`,
    type: 'webhook',
    config: { url: 'http://169.254.169.254/', method: 'POST' },
  });
  const channel = await call('POST', '/notification-channels', channelBody());
  const scheduleBody = () => ({
    name: `fuzz rota ${unique()}`,
    timezone: 'Europe/Berlin',
    layers: [{ user_ids: [user.id], rotation_type: 'weekly', start_time: '2026-01-05T09:00:00' }],
  });
  const schedule = await call('POST', '/schedules', scheduleBody());
  const overrideBody = () => ({
    user_id: user.id,
    start: '2030-01-01T09:00:00',
    end: '2030-01-02T09:00:00',
    reason: 'swap',
  });
  const withOverride = await call('POST', `/schedules/${schedule.id}/overrides`, overrideBody());
  const policyBody = (target = { channel, schedule }) => ({
    name: `fuzz policy ${unique()}`,
    stages: [
      { stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: target.channel.id }] },
      {
        stage_order: 2,
        delay_minutes: 5,
        targets: [
          { type: 'schedule', id: target.schedule.id, channels: ['email'] },
          { type: 'user', id: user.id, channels: ['email', 'chat'] },
        ],
      },
    ],
  });
  const policy = await call('POST', '/escalation-policies', policyBody());
  const ruleBody = (target = policy) => ({
    name: `fuzz rule ${unique()}`,
    metric: 'queue_time_seconds',
    condition: 'gt',
    threshold: 30,
    evaluation_window_minutes: 0,
    severity: 'high',
    escalation_policy_id: target.id,
  });
  const rule = await call('POST', '/alert-rules', ruleBody());
  // What the fuzzed creates and replaces reference instead, so that the deletions at the end find the fixtures unreferenced.
  const spare = {
    channel: await call('POST', '/notification-channels', channelBody()),
    schedule: await call('POST', '/schedules', scheduleBody()),
  };
  const sparePolicy = await call('POST', '/escalation-policies', policyBody(spare));
  await call('POST', '/simulator/metrics', { metric: 'queue_time_seconds', value: 95, duration_seconds: 3600 });
  await platform.evaluator.tick();
  let incidentId = '';
  await waitFor(
    async () => {
      incidentId = (await call('GET', `/incidents?rule_id=${rule.id}`))[0]?.id ?? '';
      return incidentId !== '';
    },
    { timeoutMs: 10_000, message: 'the incident' },
  );
  const windowBody = () => ({
    name: `fuzz window ${unique()}`,
    reason: 'fuzz',
    matcher: { rule_ids: [rule.id] },
    starts_at: '2030-01-01T00:00:00Z',
    ends_at: '2030-01-01T02:00:00Z',
  });
  const maintenanceWindow = await call('POST', '/maintenance-windows', windowBody());
  const heartbeatBody = () => ({
    name: `fuzz heartbeat ${unique()}`,
    interval_seconds: 3600,
    grace_seconds: 300,
    escalation_policy_id: policy.id,
  });
  const heartbeat = await call('POST', '/heartbeats', heartbeatBody());
  const integrationBody = () => ({
    name: `fuzz integration ${unique()}`,
    kind: 'events_v2',
    escalation_policy_id: policy.id,
  });
  const integration = await call('POST', '/integrations', integrationBody());
  // One integration per receiver keyed in its address (/integrations/<kind>/{key}).
  const receiverKeys: Record<string, string> = {};
  for (const [kind, config] of [
    ['alertmanager', {}],
    ['sns', {}],
    ['generic', { dedup_key: '/id', title: '/title' }],
  ] as const)
    receiverKeys[kind] = (await call('POST', '/integrations', { ...integrationBody(), kind, config })).routing_key;
  await call('POST', '/sync/trigger', { job_id: JOB_ID });
  let logId = '';
  await waitFor(
    async () => {
      const run = (await call('GET', `/sync/history?job_id=${JOB_ID}`))[0];
      logId = run && run.status !== 'running' ? run.log_id : '';
      return logId !== '';
    },
    { timeoutMs: 60_000, intervalMs: 50, message: 'a finished sync run' },
  );

  const ids: Record<string, string> = {
    users: user.id,
    roles: role.id,
    groups: group.id,
    'notification-channels': channel.id,
    schedules: schedule.id,
    'escalation-policies': policy.id,
    'alert-rules': rule.id,
    incidents: incidentId,
    'maintenance-windows': maintenanceWindow.id,
    heartbeats: heartbeat.id,
    integrations: integration.id,
  };
  const byName: Record<string, string> = {
    user_id: member.id,
    override_id: withOverride.overrides[0].id,
    job_id: JOB_ID,
    log_id: logId,
  };
  const examples: Record<string, () => Record<string, unknown>> = {
    'post /users': () => ({ email: `fuzz-${unique()}@example.com`, name: 'Fuzz Created' }),
    'put /users/{id}': () => ({ email: user.email, name: 'Fuzz User', role_id: null, group_ids: [] }),
    'patch /users/{id}': () => ({ name: 'Fuzz Patched' }),
    'put /users/{id}/permission-overrides': () => ({ permissions: { 'sync:write': 'deny' } }),
    'post /roles': () => ({ name: `fuzz role ${unique()}`, permissions: { 'audit:read': 'allow' } }),
    'put /roles/{id}': () => ({
      name: `fuzz role ${unique()}`,
      permissions: { 'audit:read': 'allow', 'alerts:read': 'deny' },
    }),
    'post /groups': () => ({ name: `fuzz group ${unique()}`, permissions: {} }),
    'put /groups/{id}': () => ({ name: `fuzz group ${unique()}`, permissions: { 'alerts:read': 'allow' } }),
    'put /tenant/permission-defaults': () => ({ permissions: { 'alerts:read': 'allow' } }),
    'post /notification-channels': channelBody,
    'put /notification-channels/{id}': channelBody,
    'post /schedules': scheduleBody,
    'put /schedules/{id}': scheduleBody,
    'post /schedules/{id}/overrides': overrideBody,
    'post /escalation-policies': () => policyBody(spare),
    'put /escalation-policies/{id}': () => policyBody(spare),
    'post /escalation-policies/preview': () => policyBody(spare),
    'post /alert-rules': () => ruleBody(sparePolicy),
    'put /alert-rules/{id}': () => ruleBody(sparePolicy),
    'patch /alert-rules/{id}': () => ({ threshold: 40 }),
    'post /incidents': () => ({ title: 'fuzz page', escalation_policy_id: policy.id }),
    'post /incidents/{id}/acknowledge': () => ({}),
    'post /incidents/{id}/resolve': () => ({ note: 'fuzzed' }),
    'post /incidents/{id}/notes': () => ({ text: 'fuzz note' }),
    'post /simulator/metrics': () => ({ metric: 'queue_time_seconds', value: 95, duration_seconds: 3600 }),
    // Running again at the end: /health is checked afterwards.
    'post /simulator/cluster': () => ({ paused: false }),
    'post /stream-tickets': () => ({ path: '/api/v1/incidents/stream' }),
    'post /sync/trigger': () => ({ job_id: JOB_ID }),
    'post /ask': () => ({ prompt: 'why are my queries slow?' }),
    'post /maintenance-windows': windowBody,
    'put /maintenance-windows/{id}': windowBody,
    'post /heartbeats': heartbeatBody,
    'put /heartbeats/{id}': heartbeatBody,
    'post /integrations': integrationBody,
    'put /integrations/{id}': integrationBody,
    'post /v2/enqueue': () => ({
      routing_key: integration.routing_key,
      event_action: 'trigger',
      dedup_key: 'fuzz',
      payload: { summary: 'fuzz', source: 'fuzz', severity: 'info' },
    }),
    'post /v2/change/enqueue': () => ({ routing_key: integration.routing_key, payload: { summary: 'fuzz' } }),
    'post /integrations/alertmanager/{key}': () => ({
      version: '4',
      groupKey: '{}:{alertname="Fuzz"}',
      status: 'firing',
      receiver: 'fuzz',
      alerts: [{ status: 'firing', labels: { alertname: 'Fuzz' }, annotations: {}, fingerprint: 'f0f0f0f0f0f0f0f0' }],
    }),
    'post /integrations/generic/{key}': () => ({ id: 'fuzz', title: 'fuzz' }),
    'post /oauth/token': () => ({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      audience,
    }),
  };
  const key = (path: string) => path.replace(/^\/api\/v1(?=\/)/, '');
  // The dashboard's assets are named by their content: the page says which names this build has.
  const page = await (await fetch(`${platform.url}/`)).text();
  const assetHash = (extension: string) => new RegExp(`/dashboard/app\\.([0-9a-f]+)\\.${extension}`).exec(page)?.[1];
  return {
    token,
    pathValue(path, name) {
      if (byName[name]) return byName[name]!;
      // An action link's token (public /a/{token}): well-formed base64url that no key signed.
      if (name === 'token') return 'A'.repeat(150);
      // A receiver's routing key: the fixture integration of the kind its address names.
      if (name === 'key') return receiverKeys[path.split('/')[2]!]!;
      if (name === 'hash') {
        const hash = assetHash(path.split('.').at(-1)!);
        if (!hash) throw new Error(`the dashboard page names no hashed asset for ${path}`);
        return hash;
      }
      const area = key(path).split('/')[1]!;
      const id = ids[area];
      if (!id) throw new Error(`no fixture for ${name} in ${path}`);
      return id;
    },
    example: (method, path) => examples[`${method} ${key(path)}`]?.(),
  };
}
