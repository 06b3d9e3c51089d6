/**
 * Alert rules: the decider (pure) and the command routes. Checks that need I/O (the metric is
 * registered, the escalation policy exists in the tenant) run before the decider.
 */
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { handleCommand, type CommandDeps } from '../src/commanding/command-handler.js';
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import type { AlertRuleData, AlertRuleEvent } from '../src/events/alert-rule.js';
import { RULE_EVALUATION_RETENTION, ruleEvaluationStream } from '../src/events/rule-evaluation.js';
import { commandHeaders, envelopeFrom, ifMatchRevision } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest, notFound } from '../src/http/problem.js';
import type { AppState } from '../src/http/state.js';
import { alertRuleBodySchema, alertRulePatchSchema, toRuleBody, toRuleData, type AlertRuleBody } from './alert-rule-body.js';

export interface AlertRuleState {
  status: 'absent' | 'active' | 'deleted';
  rule?: AlertRuleData;
}

export type AlertRuleCommand =
  | { kind: 'CreateAlertRule'; rule: AlertRuleData }
  | { kind: 'UpdateAlertRule'; rule: AlertRuleData }
  | { kind: 'DeleteAlertRule'; ruleId: string };

export const alertRuleDecider: Decider<AlertRuleState, AlertRuleCommand, AlertRuleEvent> = {
  initialState: () => ({ status: 'absent' }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'AlertRuleCreated':
      case 'AlertRuleUpdated':
        return { status: 'active', rule: event.data };
      case 'AlertRuleDeleted':
        return { ...state, status: 'deleted' };
    }
  },
  decide: (command, state) => {
    switch (command.kind) {
      case 'CreateAlertRule':
        if (state.status !== 'absent') throw rejectConflict('an alert rule with this id already exists');
        return [{ type: 'AlertRuleCreated', data: command.rule }];
      case 'UpdateAlertRule':
        if (state.status !== 'active') throw rejectNotFound('alert rule');
        // The rule keeps the environment it was created in, whoever edits it.
        return [{ type: 'AlertRuleUpdated', data: { ...command.rule, envId: state.rule!.envId } }];
      case 'DeleteAlertRule':
        if (state.status !== 'active') throw rejectNotFound('alert rule');
        return [{ type: 'AlertRuleDeleted', data: { ruleId: command.ruleId } }];
    }
  },
};

export const alertRuleStream = (id: string) => `alertRule-${id}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AlertRuleCommandDeps extends CommandDeps {
  metricIds: () => string[];
  policyExists: (tenantId: string, policyId: string) => Promise<boolean>;
  viewRule: (tenantId: string, id: string) => Promise<Record<string, unknown> | null>;
  /** Resolves the rule's active incident, if any (reason rule_deleted); returns its id. */
  resolveActiveIncidentOfDeletedRule: (ctx: Parameters<typeof envelopeFrom>[0], ruleId: string) => Promise<string | null>;
}

export function alertRuleCommandRoutes(deps: AlertRuleCommandDeps) {
  const router = new Router<AppState>();

  const checkReferences = async (tenantId: string, body: AlertRuleBody) => {
    const known = deps.metricIds();
    const errors = [];
    if (!known.includes(body.metric)) errors.push({ path: '/metric', message: `unknown metric; known metrics: ${known.join(', ')}` });
    if (!(await deps.policyExists(tenantId, body.escalation_policy_id))) {
      errors.push({ path: '/escalation_policy_id', message: 'no escalation policy with this id in the tenant' });
    }
    if (errors.length > 0) throw badRequest(errors.map((e) => `${e.path.slice(1)}: ${e.message}`).join('; '), errors);
  };
  const run = (ctx: Parameters<typeof envelopeFrom>[0], command: AlertRuleCommand, ruleId: string, expectedRevision?: bigint) =>
    handleCommand(deps, alertRuleDecider, {
      stream: alertRuleStream(ruleId), resourceName: 'alert rule', command, envelope: envelopeFrom(ctx), expectedRevision,
      newStream: command.kind === 'CreateAlertRule',
    });
  const ruleIdParam = (ctx: { params: Record<string, string | undefined> }) => {
    if (!UUID.test(ctx.params.id ?? '')) throw notFound('alert rule');
    return ctx.params.id!;
  };
  const update = async (ctx: Parameters<typeof envelopeFrom>[0] & { params: Record<string, string | undefined> }, body: AlertRuleBody) => {
    const ruleId = ruleIdParam(ctx);
    await checkReferences(ctx.state.principal.tenantId, body);
    const outcome = await run(ctx, { kind: 'UpdateAlertRule', rule: toRuleData(ruleId, ctx.state.principal.envId, body) }, ruleId, ifMatchRevision(ctx));
    commandHeaders(ctx, outcome);
    ok(ctx, await deps.viewRule(ctx.state.principal.tenantId, ruleId));
  };

  router.post('/alert-rules', requires('alerts:write'), async (ctx) => {
    const body = alertRuleBodySchema.parse(ctx.request.body);
    const { tenantId, envId } = ctx.state.principal;
    await checkReferences(tenantId, body);
    const ruleId = randomUUID();
    // Evaluations are high-volume: cap their stream before the first one is written.
    await deps.eventStore.setStreamRetention(ruleEvaluationStream(ruleId), RULE_EVALUATION_RETENTION);
    const outcome = await run(ctx, { kind: 'CreateAlertRule', rule: toRuleData(ruleId, envId, body) }, ruleId);
    commandHeaders(ctx, outcome);
    ctx.set('Location', `${ctx.path.replace(/\/$/, '')}/${ruleId}`);
    ok(ctx, await deps.viewRule(tenantId, ruleId), 201);
  });

  router.put('/alert-rules/:id', requires('alerts:write'), async (ctx) => update(ctx, alertRuleBodySchema.parse(ctx.request.body)));

  router.patch('/alert-rules/:id', requires('alerts:write'), async (ctx) => {
    const patch = alertRulePatchSchema.parse(ctx.request.body);
    const current = await deps.viewRule(ctx.state.principal.tenantId, ruleIdParam(ctx));
    if (!current) throw notFound('alert rule');
    const merged = alertRuleBodySchema.parse({ ...toRuleBody(fromView(current)), ...patch });
    await update(ctx, merged);
  });

  router.delete('/alert-rules/:id', requires('alerts:write'), async (ctx) => {
    const ruleId = ruleIdParam(ctx);
    const outcome = await run(ctx, { kind: 'DeleteAlertRule', ruleId }, ruleId, ifMatchRevision(ctx));
    commandHeaders(ctx, outcome);
    const resolved = await deps.resolveActiveIncidentOfDeletedRule(ctx, ruleId);
    ok(ctx, { id: ruleId, deleted: true, resolved_incident_id: resolved });
  });
  return router;
}

/** The API view back to rule data (for PATCH merges). */
function fromView(view: Record<string, unknown>): AlertRuleData {
  return {
    ruleId: String(view.id), name: String(view.name), description: (view.description as string | null) ?? null, metric: String(view.metric),
    condition: view.condition as AlertRuleData['condition'], threshold: Number(view.threshold), evaluationWindowMinutes: Number(view.evaluation_window_minutes),
    severity: view.severity as AlertRuleData['severity'], escalationPolicyId: String(view.escalation_policy_id), clusterId: (view.cluster_id as string | null) ?? null,
    isEnabled: Boolean(view.is_enabled), envId: String(view.env_id),
  };
}
