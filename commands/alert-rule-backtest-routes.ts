/**
 * "Would this rule have fired?": POST /alert-rules/backtest replays a saved rule (rule_id) or an
 * unsaved rule body over a past range, with the evaluator's own decision function, over recorded
 * metric history (src/backtest/). Nothing is appended and nothing is sent, so it needs only
 * `alerts:read`: whoever may read a rule and its evaluation history may ask how it would have
 * behaved. It is a POST because an unsaved rule is a body, not a query string, and so it lives with
 * the rule's other POST routes; the saved rule and the policy come through lookups the composition
 * passes in (src/composition/backtest.ts).
 */
import type { RuleBacktest } from '../src/contract/alert-rules.js';
import Router from '@koa/router';
import { readFailureSettingsOf } from '../src/events/alert-rule.js';
import { toRuleData } from './alert-rules.js';
import { alertRuleBacktestBody, MAX_BACKTEST_DAYS } from '../src/contract/bodies/alert-rules.js';
import { ruleReferenceErrors, type RuleReferenceDeps } from './alert-rule-routes.js';
import { UnknownClusterError, UnknownMetricError } from '../src/gateways/warehouse/errors.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { heavyRequest, type HeavyRequestSlots } from '../src/http/heavy-request-slots.js';
import { badRequest, notFound, type ProblemFieldError } from '../src/http/problem.js';
import type { AppState } from '../src/http/state.js';
import { type HistorySourceName, type MetricHistorySource } from '../src/gateways/warehouse/metric-history-port.js';
import type { BacktestWindow } from '../src/backtest/maintenance-timeline.js';
import type { PagedPolicy } from '../src/backtest/pages.js';
import { runBacktest, type BacktestRule } from '../src/backtest/run-backtest.js';

const DAY_MS = 86_400_000;

/** A saved rule as the backtest needs it. */
export type SavedRule = BacktestRule & { id: string; escalationPolicyId: string };

export interface AlertRuleBacktestDeps {
  /** The tenant's live rule with this id, or null. */
  findRule: (tenantId: string, ruleId: string) => Promise<SavedRule | null>;
  /** The tenant's maintenance windows that can have been active in [since, until], ended and deleted ones cut where they stopped. */
  windowsOverlapping: (tenantId: string, since: number, until: number) => Promise<BacktestWindow[]>;
  /** The tenant's escalation policy with this id, or null (deleted). */
  findPolicy: (tenantId: string, policyId: string) => Promise<PagedPolicy | null>;
  references: RuleReferenceDeps;
  /** The history sources this deployment has, and which answers when the request names none. */
  sources: Partial<Record<HistorySourceName, MetricHistorySource>>;
  defaultSource: HistorySourceName;
  evaluatorIntervalSeconds: number;
  now: () => Date;
  /**
   * A backtest is a heavy request (a few tenths of a second of CPU): a script firing dozens in
   * parallel would take the evaluator's and every other tenant's share, so it holds one of the
   * instance's heavy-request slots, capped per tenant and in total (src/http/heavy-request-slots.ts).
   */
  slots: HeavyRequestSlots;
}

export function alertRuleBacktestRoutes(deps: AlertRuleBacktestDeps) {
  const router = new Router<AppState>();

  router.post('/alert-rules/backtest', requires('alerts:read'), heavyRequest(deps.slots), async (ctx) => {
    const body = alertRuleBacktestBody.parse(ctx.request.body);
    const { tenantId, envId } = ctx.state.principal;
    const errors: ProblemFieldError[] = [];
    if ((body.rule_id === undefined) === (body.rule === undefined))
      errors.push({ path: '/rule_id', message: 'give either rule_id or rule' });
    const since = Date.parse(body.since);
    const until = Date.parse(body.until);
    if (until <= since) errors.push({ path: '/until', message: 'must be after since' });
    else if (until - since > MAX_BACKTEST_DAYS * DAY_MS)
      errors.push({ path: '/until', message: `at most ${MAX_BACKTEST_DAYS} days after since` });
    const sourceName = body.source ?? deps.defaultSource;
    const source = deps.sources[sourceName];
    if (!source)
      errors.push({
        path: '/source',
        message: `not available here; available: ${Object.keys(deps.sources).join(', ')}`,
      });
    if (errors.length > 0) throw badRequest(errors.map((e) => `${e.path.slice(1)}: ${e.message}`).join('; '), errors);
    let rule: BacktestRule & { id: string | null; escalationPolicyId: string };
    if (body.rule_id !== undefined) {
      const saved = await deps.findRule(tenantId, body.rule_id);
      if (!saved) throw notFound('alert rule');
      rule = saved;
    } else {
      // The same schema and the same reference checks as POST /alert-rules, errors under /rule.
      const data = toRuleData('00000000-0000-0000-0000-000000000000', envId, body.rule!);
      const refused = await ruleReferenceErrors(deps.references, tenantId, data);
      if (refused.length > 0) {
        const nested = refused.map((e) => ({ path: `/rule${e.path}`, message: e.message }));
        throw badRequest(nested.map((e) => `${e.path.slice(1)}: ${e.message}`).join('; '), nested);
      }
      rule = {
        id: null,
        envId,
        clusterId: data.clusterId,
        metric: data.metric,
        condition: data.condition,
        threshold: data.threshold,
        windowMinutes: data.evaluationWindowMinutes,
        severity: data.severity,
        escalationPolicyId: data.escalationPolicyId,
        readFailure: readFailureSettingsOf(data),
      };
    }
    const policy = await deps.findPolicy(tenantId, rule.escalationPolicyId);
    const windows = await deps.windowsOverlapping(tenantId, since, until);
    const stepMs = (body.step_seconds ?? Math.max(60, deps.evaluatorIntervalSeconds)) * 1000;
    let answer;
    try {
      answer = await runBacktest(source!, {
        rule,
        policy,
        windows,
        since,
        until,
        stepMs,
        now: deps.now().getTime(),
        includeReadings: body.include_readings,
      });
    } catch (error) {
      // A registered metric the simulator does not model, or a cluster the environment lost.
      if (error instanceof UnknownMetricError || error instanceof UnknownClusterError)
        throw badRequest(`${sourceName} has no history of this: ${error.message}`);
      throw error;
    }
    const backtest: RuleBacktest = {
      rule: {
        id: rule.id,
        metric: rule.metric,
        condition: rule.condition,
        threshold: rule.threshold,
        evaluation_window_minutes: rule.windowMinutes,
        cluster_id: rule.clusterId,
        escalation_policy_id: rule.escalationPolicyId,
      },
      since: new Date(since).toISOString(),
      until: new Date(until).toISOString(),
      ...answer,
    };
    ok(ctx, backtest);
  });
  return router;
}
