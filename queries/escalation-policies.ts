import Router from '@koa/router';
import { ESCALATION_POLICIES, type EscalationPolicyDoc } from '../projections/escalation-policies.js';
import { etagOf } from '../src/http/command-context.js';
import { ok, okPage } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { pageRequest, readPage } from '../src/http/pagination.js';
import { notFound } from '../src/http/problem.js';
import type { AppState } from '../src/http/state.js';
import type { ReadModelReader } from '../src/readstore/port.js';

/** The policy as clients see it: the body they sent, normalised, plus id and timestamps. */
export const escalationPolicyView = (doc: EscalationPolicyDoc) => ({
  id: doc.id,
  name: doc.name,
  description: doc.description,
  stages: doc.stages,
  repeat_interval_minutes: doc.repeatIntervalMinutes,
  created_at: doc.createdAt,
  updated_at: doc.updatedAt,
});

/** The tenant's policy, or null (also for another tenant's: its existence is never revealed). */
export async function findEscalationPolicy(reader: ReadModelReader, tenantId: string, id: string) {
  const doc = await reader.get<EscalationPolicyDoc>(ESCALATION_POLICIES, id);
  return doc && doc.tenantId === tenantId ? doc : null;
}

async function namesOfPolicies(reader: ReadModelReader, tenantId: string, field: 'targetIds' | 'channelIds', id: string) {
  const docs = await reader.find<EscalationPolicyDoc>(ESCALATION_POLICIES, { tenantId, [field]: { $contains: id } }, { sort: [['name', 'asc']] });
  return docs.map((doc) => doc.name);
}

/** Names of the tenant's policies with a stage that targets this notification channel. */
export const policiesReferencingChannel = (reader: ReadModelReader, tenantId: string, channelId: string) =>
  namesOfPolicies(reader, tenantId, 'channelIds', channelId.toLowerCase());

/** Names of the tenant's policies with a stage that targets this id (user, group, schedule or channel). */
export const policiesReferencingTarget = (reader: ReadModelReader, tenantId: string, targetId: string) =>
  namesOfPolicies(reader, tenantId, 'targetIds', targetId.toLowerCase());

export function escalationPolicyQueryRoutes(deps: { reader: ReadModelReader }) {
  const router = new Router<AppState>();

  router.get('/escalation-policies', requires('escalation:read'), async (ctx) => {
    const filter = { tenantId: ctx.state.principal.tenantId };
    const { items, page } = await readPage<EscalationPolicyDoc>(deps.reader, ESCALATION_POLICIES, filter, [['createdAt', 'desc']], pageRequest(ctx));
    okPage(ctx, items.map(escalationPolicyView), page);
  });

  router.get('/escalation-policies/:id', requires('escalation:read'), async (ctx) => {
    const doc = await findEscalationPolicy(deps.reader, ctx.state.principal.tenantId, ctx.params.id!);
    if (!doc) throw notFound('escalation policy');
    ctx.set('ETag', etagOf(doc.revision));
    ok(ctx, escalationPolicyView(doc));
  });
  return router;
}
