import { z } from 'zod';
import type { AlertRule, Evaluation } from '../src/contract/alert-rules.js';
import { ALERT_RULES, watchOf, type AlertRuleDoc } from '../projections/alert-rules.js';
import type { EventStore } from '../src/eventstore/port.js';
import { readFailureSettingsOf } from '../src/events/alert-rule.js';
import { EVALUATION_OUTCOMES, ruleEvaluationStream, type RuleEvaluatedData } from '../src/events/rule-evaluation.js';
import { severitySchema } from '../src/events/vocabulary.js';
import { apiInstant } from '../src/contract/api-instant.js';
import { okPage } from '../src/http/envelope.js';
import { DEFAULT_PAGE_SIZE } from '../src/http/pagination.js';
import { requires } from '../src/http/guard.js';
import { badRequest, notFound } from '../src/http/problem.js';
import { optionalString } from '../src/http/optional-string.js';
import { findTenantDoc, readModelRoutes } from '../src/http/read-model-routes.js';
import { listParameters } from '../src/http/query-parameters.js';
import type { Filter, ReadModelReader } from '../src/readstore/port.js';

/** The rule's watch state, as its evaluations left it (see RuleWatch). */
const watchView = (doc: AlertRuleDoc) => {
  const watch = watchOf(doc);
  return {
    /** The condition has held since then, not yet for the whole window (null: it does not hold). */
    pending_since: watch.pendingSince,
    /** false after a manual resolve until the condition has cleared once (no re-trigger before). */
    rearmed: watch.rearmed,
    /** `failing` while the latest evaluation failed: the rule is blind until it reads again. */
    health: watch.health,
    last_error: watch.lastError,
    failing_since: watch.failingSince,
  };
};

/** What the rule does while its reads fail (a rule stored before these settings reads as it behaves: `ok`). */
const readFailureView = (doc: AlertRuleDoc) => {
  const settings = readFailureSettingsOf(doc);
  return { on_error: settings.onError, on_no_data: settings.onNoData, error_for_minutes: settings.errorForMinutes };
};

export const alertRuleView = (doc: AlertRuleDoc): AlertRule => ({
  id: doc.id,
  tenant_id: doc.tenantId,
  env_id: doc.envId,
  name: doc.name,
  description: optionalString(doc.description),
  metric: doc.metric,
  condition: doc.condition,
  threshold: doc.threshold,
  evaluation_window_minutes: doc.evaluationWindowMinutes,
  severity: doc.severity,
  escalation_policy_id: doc.escalationPolicyId,
  cluster_id: optionalString(doc.clusterId),
  is_enabled: doc.isEnabled,
  active_incident_id: doc.activeIncidentId,
  ...readFailureView(doc),
  ...watchView(doc),
  created_at: doc.createdAt,
  updated_at: doc.updatedAt,
});

export const findRule = (reader: ReadModelReader, tenantId: string, id: string) =>
  findTenantDoc<AlertRuleDoc>(reader, ALERT_RULES, tenantId, id, (doc) => !doc.deleted);

export const alertRuleListQuery = z.object({
  is_enabled: z.enum(['true', 'false']).optional(),
  metric: z.string().optional(),
  severity: severitySchema.optional(),
});

export const alertRuleHistoryQuery = z.object({
  from: apiInstant.optional(),
  to: apiInstant.optional(),
  outcome: z.enum(EVALUATION_OUTCOMES).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(DEFAULT_PAGE_SIZE),
  cursor: z.string().regex(/^\d+$/, 'not a cursor from this API').optional(),
});

const HISTORY_READ_BATCH = 500;
const HISTORY_FILTERS = ['from', 'to', 'outcome'];

export function alertRuleQueryRoutes(deps: { reader: ReadModelReader; eventStore: EventStore }) {
  const router = readModelRoutes<AlertRuleDoc>(deps.reader, {
    path: '/alert-rules',
    resourceName: 'alert rule',
    permission: 'alerts:read',
    collection: ALERT_RULES,
    sort: [['createdAt', 'desc']],
    view: alertRuleView,
    visible: (doc) => !doc.deleted,
    accepts: Object.keys(alertRuleListQuery.shape),
    listFilter: (ctx) => {
      const query = alertRuleListQuery.parse(ctx.query);
      const filter: Filter = { deleted: false };
      if (query.is_enabled) filter.isEnabled = query.is_enabled === 'true';
      if (query.metric) filter.metric = query.metric;
      if (query.severity) filter.severity = query.severity;
      return filter;
    },
  });

  /**
   * Evaluations newest first, straight from the rule's evaluation stream; the cursor is a revision.
   * A deleted rule's history stays readable (auditors); only another tenant's or a never-existing rule is 404.
   */
  router.get('/alert-rules/:id/history', requires('alerts:read'), listParameters(HISTORY_FILTERS), async (ctx) => {
    const doc = await findTenantDoc<AlertRuleDoc>(
      deps.reader,
      ALERT_RULES,
      ctx.state.principal.tenantId,
      ctx.params.id!,
    );
    if (!doc) throw notFound('alert rule');
    const query = alertRuleHistoryQuery.parse(ctx.query);
    if (query.from && query.to && Date.parse(query.from) > Date.parse(query.to))
      throw badRequest('from must not be after to');
    const from = query.from ? Date.parse(query.from) : -Infinity;
    const to = query.to ? Date.parse(query.to) : Infinity;
    const items: (RuleEvaluatedData & { revision: bigint })[] = [];
    let before = query.cursor !== undefined ? BigInt(query.cursor) : undefined;
    let more = false;
    while (!more) {
      if (before !== undefined && before <= 0n) break;
      const batch = await deps.eventStore.readStream(ruleEvaluationStream(doc.id), {
        direction: 'backwards',
        maxCount: HISTORY_READ_BATCH,
        fromRevision: before === undefined ? undefined : before - 1n,
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
      items.map(
        ({ revision: _r, ruleId: _id, conditionMet, incidentId, windowId, ...rest }): Evaluation => ({
          ...rest,
          condition_met: conditionMet,
          incident_id: incidentId,
          window_id: windowId ?? null,
        }),
      ),
      { limit: query.limit, next_cursor: more ? String(items.at(-1)!.revision) : null },
    );
  });
  return router;
}
