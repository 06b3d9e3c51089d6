import { ESCALATION_POLICIES, type EscalationPolicyDoc } from '../projections/escalation-policies.js';
import type { EscalationPolicy } from '../src/contract/escalation-policies.js';
import { optionalString } from '../src/http/optional-string.js';
import { findTenantDoc, readModelRoutes } from '../src/http/read-model-routes.js';
import type { ReadModelReader } from '../src/readstore/port.js';

/** The policy as clients see it: the body they sent, normalised, plus id and timestamps. */
export const escalationPolicyView = (doc: EscalationPolicyDoc): EscalationPolicy => ({
  id: doc.id,
  name: doc.name,
  description: optionalString(doc.description),
  stages: doc.stages,
  repeat_interval_minutes: doc.repeatIntervalMinutes,
  created_at: doc.createdAt,
  updated_at: doc.updatedAt,
});

/** The tenant's policy, or null (also for another tenant's: its existence is never revealed). */
export const findEscalationPolicy = (reader: ReadModelReader, tenantId: string, id: string) =>
  findTenantDoc<EscalationPolicyDoc>(reader, ESCALATION_POLICIES, tenantId, id);

/** A policy as a reference answer names it: `referenced_by: [{ id, name }]`. */
export interface PolicyReference {
  id: string;
  name: string;
}

async function policiesTargeting(
  reader: ReadModelReader,
  tenantId: string,
  field: 'targetIds' | 'channelIds',
  id: string,
): Promise<PolicyReference[]> {
  const docs = await reader.find<EscalationPolicyDoc>(
    ESCALATION_POLICIES,
    { tenantId, [field]: { $contains: id } },
    { sort: [['name', 'asc']] },
  );
  return docs.map((doc) => ({ id: doc.id, name: doc.name }));
}

/** The tenant's policies (id and name, by name) with a stage that targets this notification channel. */
export const policiesReferencingChannel = (reader: ReadModelReader, tenantId: string, channelId: string) =>
  policiesTargeting(reader, tenantId, 'channelIds', channelId.toLowerCase());

/** Names of the tenant's policies with a stage that targets this id (user, group, schedule or channel). */
export const policiesReferencingTarget = async (reader: ReadModelReader, tenantId: string, targetId: string) =>
  (await policiesTargeting(reader, tenantId, 'targetIds', targetId.toLowerCase())).map((policy) => policy.name);

export function escalationPolicyQueryRoutes(deps: { reader: ReadModelReader }) {
  return readModelRoutes<EscalationPolicyDoc>(deps.reader, {
    path: '/escalation-policies',
    resourceName: 'escalation policy',
    permission: 'escalation:read',
    collection: ESCALATION_POLICIES,
    sort: [['createdAt', 'desc']],
    view: escalationPolicyView,
  });
}

/** The tenant's policies with a stage that targets this id, as `referenced_by` shows them. */
export async function policiesWithTarget(
  reader: ReadModelReader,
  tenantId: string,
  targetId: string,
): Promise<{ id: string; name: string }[]> {
  const docs = await reader.find<EscalationPolicyDoc>(
    ESCALATION_POLICIES,
    { tenantId, targetIds: { $contains: targetId.toLowerCase() } },
    { sort: [['name', 'asc']] },
  );
  return docs.map((doc) => ({ id: doc.id, name: doc.name }));
}
