import Router from '@koa/router';
import { z } from 'zod';
import { ALERT_RULES, type AlertRuleDoc } from '../projections/alert-rules.js';
import type { EventStore } from '../src/eventstore/port.js';
import { EVALUATION_OUTCOMES, ruleEvaluationStream, type RuleEvaluatedData } from '../src/events/rule-evaluation.js';
import { etagOf } from '../src/http/command-context.js';
import { ok, okPage } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { pageRequest, readPage } from '../src/http/pagination.js';
import { badRequest, notFound } from '../src/http/problem.js';
import type { AppState } from '../src/http/state.js';
import type { Filter, ReadModelReader } from '../src/readstore/port.js';

export const alertRuleView = (doc: AlertRuleDoc) => ({
  id: doc.id,
  tenant_id: doc.tenantId,
  env_id: doc.envId,
  name: doc.name,
  description: doc.description,
  metric: doc.metric,
  condition: doc.condition,
  threshold: doc.threshold,
  evaluation_window_minutes: doc.evaluationWindowMinutes,
  severity: doc.severity,
  escalation_policy_id: doc.escalationPolicyId,
  cluster_id: doc.clusterId,
  is_enabled: doc.isEnabled,
  active_incident_id: doc.activeIncidentId,
  created_at: doc.createdAt,
  updated_at: doc.updatedAt,
});

export async function findRule(reader: ReadModelReader, tenantId: string, id: string) {
  const doc = await reader.get<AlertRuleDoc>(ALERT_RULES, id);
  return doc && doc.tenantId === tenantId && !doc.deleted ? doc : null;
}

const listQuery = z.object({
  is_enabled: z.enum(['true', 'false']).optional(),
  metric: z.string().optional(),
  severity: z.enum(['critical', 'high', 'medium', 'low']).optional(),
});

const historyQuery = z.object({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  outcome: z.enum(EVALUATION_OUTCOMES).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z.string().regex(/^\d+$/, 'not a cursor from this API').optional(),
});

const HISTORY_READ_BATCH = 500;

export function alertRuleQueryRoutes(deps: { reader: ReadModelReader; eventStore: EventStore }) {
  const router = new Router<AppState>();

  router.get('/alert-rules', requires('alerts:read'), async (ctx) => {
    const query = listQuery.parse(ctx.query);
    const filter: Filter = { tenantId: ctx.state.principal.tenantId, deleted: false };
    if (query.is_enabled) filter.isEnabled = query.is_enabled === 'true';
    if (query.metric) filter.metric = query.metric;
    if (query.severity) filter.severity = query.severity;
    const { items, page } = await readPage<AlertRuleDoc>(deps.reader, ALERT_RULES, filter, [['createdAt', 'desc']], pageRequest(ctx));
    okPage(ctx, items.map(alertRuleView), page);
  });

  router.get('/alert-rules/:id', requires('alerts:read'), async (ctx) => {
    const doc = await findRule(deps.reader, ctx.state.principal.tenantId, ctx.params.id!);
    if (!doc) throw notFound('alert rule');
    ctx.set('ETag', etagOf(doc.revision));
    ok(ctx, alertRuleView(doc));
  });

  /** Evaluations newest first, straight from the rule's evaluation stream; the cursor is a revision. */
  router.get('/alert-rules/:id/history', requires('alerts:read'), async (ctx) => {
    const doc = await findRule(deps.reader, ctx.state.principal.tenantId, ctx.params.id!);
    if (!doc) throw notFound('alert rule');
    const query = historyQuery.parse(ctx.query);
    if (query.from && query.to && Date.parse(query.from) > Date.parse(query.to)) throw badRequest('from must not be after to');
    const from = query.from ? Date.parse(query.from) : -Infinity;
    const to = query.to ? Date.parse(query.to) : Infinity;
    const items: (RuleEvaluatedData & { revision: bigint })[] = [];
    let before = query.cursor !== undefined ? BigInt(query.cursor) : undefined;
    let more = false;
    while (!more) {
      if (before !== undefined && before <= 0n) break;
      const batch = await deps.eventStore.readStream(ruleEvaluationStream(doc.id), {
        direction: 'backwards', maxCount: HISTORY_READ_BATCH, fromRevision: before === undefined ? undefined : before - 1n,
      });
      if (batch.length === 0) break;
      for (const event of batch) {
        const data = event.data as RuleEvaluatedData;
        const at = Date.parse(data.at);
        if (at > to || at < from || (query.outcome && data.outcome !== query.outcome)) continue;
        if (items.length === query.limit) {
          more = true;
          break;
        }
        items.push({ ...data, revision: event.revision });
      }
      before = batch.at(-1)!.revision;
      // Older than the window: nothing further back can match.
      if (Date.parse((batch.at(-1)!.data as RuleEvaluatedData).at) < from) break;
    }
    okPage(
      ctx,
      items.map(({ revision: _r, ruleId: _id, conditionMet, incidentId, ...rest }) => ({ ...rest, condition_met: conditionMet, incident_id: incidentId })),
      { limit: query.limit, next_cursor: more ? String(items.at(-1)!.revision) : null },
    );
  });
  return router;
}
