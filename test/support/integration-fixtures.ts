/**
 * Integrations on a test platform: an escalation policy that pages a webhook channel on a local
 * receiver (so each page is counted), an integration of any kind on it, and the incidents and pages
 * it made. Shared by the receivers' tests.
 */
import type { HttpReceiver } from './notify-receivers/http-receiver.js';
import type { Caller, TestApp } from './test-app.js';

export async function pagingPolicy(app: TestApp, receiver: HttpReceiver, caller: Caller, name: string) {
  const channel = await app.request('POST', '/api/v1/notification-channels', {
    caller,
    body: { name, type: 'webhook', config: { url: `${receiver.url}/${name}`, method: 'POST', headers: {} } },
  });
  const policy = await app.request('POST', '/api/v1/escalation-policies', {
    caller,
    body: {
      name: `${name} policy`,
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.body.data.id }] }],
    },
  });
  if (policy.status !== 201) throw new Error(JSON.stringify(policy.body));
  return policy.body.data.id as string;
}

/** A new integration paging a new policy's channel `name`: its answer (with routing_key and events_url). */
export async function pagingIntegration(
  app: TestApp,
  receiver: HttpReceiver,
  caller: Caller,
  name: string,
  fields: Record<string, unknown>,
) {
  const policyId = await pagingPolicy(app, receiver, caller, name);
  const created = await app.request('POST', '/api/v1/integrations', {
    caller,
    body: { name, escalation_policy_id: policyId, ...fields },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return created.body.data;
}

export const incidentsOf = async (app: TestApp, caller: Caller, integrationId: string) =>
  (await app.request('GET', `/api/v1/incidents?source=integration:${integrationId}&limit=100`, { caller })).body
    .data as any[];

/** Pages (not all-clears) the receiver got on channel `name`. */
export const pagesTo = (receiver: HttpReceiver, name: string) =>
  receiver.requests.filter(
    (request) => request.path === `/${name}` && JSON.parse(request.body).event === 'incident.triggered',
  );
