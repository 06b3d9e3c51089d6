/**
 * Alert rule command routes. Checks that need I/O (the metric is registered, the escalation policy
 * exists in the tenant) run before the decider (commands/alert-rules.ts), so a refused request
 * changes nothing.
 */
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { handleCommand, loadStream, type CommandDeps, type CommandEnvelope, type LoadedStream } from '../src/commanding/command-handler.js';
import { alertRuleStream, type AlertRuleData, type AlertRuleEvent, type AlertRuleState } from '../src/events/alert-rule.js';
import { RULE_EVALUATION_RETENTION, ruleEvaluationStream } from '../src/events/rule-evaluation.js';
import { commandHeaders, envelopeFrom, ifMatchRevision, type CommandContext } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest, notFound } from '../src/http/problem.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import { alertRuleBodySchema, alertRuleDecider, alertRulePatchSchema, patchedRule, ruleFieldsFrom, toRuleData, type AlertRuleCommand } from './alert-rules.js';

export interface AlertRuleCommandDeps extends CommandDeps {
  metricIds: () => string[];
  policyExists: (tenantId: string, policyId: string) => Promise<boolean>;
  viewRule: (tenantId: string, id: string) => Promise<Record<string, unknown> | null>;
  /** Resolves the rule's active incident, if any (reason rule_deleted); returns its id. */
  resolveActiveIncidentOfDeletedRule: (envelope: CommandEnvelope, ruleId: string) => Promise<string | null>;
}

export function alertRuleCommandRoutes(deps: AlertRuleCommandDeps) {
  const router = new Router<AppState>();

  /** The metric and the escalation policy the rule will name must exist (a patched rule is checked whole). */
  const checkReferences = async (tenantId: string, rule: Pick<AlertRuleData, 'metric' | 'escalationPolicyId'>) => {
    const known = deps.metricIds();
    const errors = [];
    if (!known.includes(rule.metric)) errors.push({ path: '/metric', message: `unknown metric; known metrics: ${known.join(', ')}` });
    if (!(await deps.policyExists(tenantId, rule.escalationPolicyId))) {
      errors.push({ path: '/escalation_policy_id', message: 'no escalation policy with this id in the tenant' });
    }
    if (errors.length > 0) throw badRequest(errors.map((e) => `${e.path.slice(1)}: ${e.message}`).join('; '), errors);
  };
  const run = (ctx: CommandContext, command: AlertRuleCommand, ruleId: string, expectedRevision?: bigint, loaded?: LoadedStream<AlertRuleState, AlertRuleEvent>) =>
    handleCommand(deps, alertRuleDecider, {
      stream: alertRuleStream(ruleId), resourceName: 'alert rule', command, envelope: envelopeFrom(ctx), expectedRevision,
      newStream: command.kind === 'CreateAlertRule', loaded,
    });
  const respond = async (ctx: CommandContext, ruleId: string, command: AlertRuleCommand, loaded?: LoadedStream<AlertRuleState, AlertRuleEvent>) => {
    const outcome = await run(ctx, command, ruleId, ifMatchRevision(ctx), loaded);
    commandHeaders(ctx, outcome);
    ok(ctx, await deps.viewRule(ctx.state.principal.tenantId, ruleId));
  };

  router.post('/alert-rules', requires('alerts:write'), async (ctx) => {
    const body = alertRuleBodySchema.parse(ctx.request.body);
    const { tenantId, envId } = ctx.state.principal;
    const ruleId = randomUUID();
    const rule = toRuleData(ruleId, envId, body);
    await checkReferences(tenantId, rule);
    // Evaluations are high-volume: cap their stream before the first one is written.
    await deps.eventStore.setStreamRetention(ruleEvaluationStream(ruleId), RULE_EVALUATION_RETENTION);
    const outcome = await run(ctx, { kind: 'CreateAlertRule', rule }, ruleId);
    commandHeaders(ctx, outcome);
    ctx.set('Location', `${ctx.path.replace(/\/$/, '')}/${ruleId}`);
    ok(ctx, await deps.viewRule(tenantId, ruleId), 201);
  });

  router.put('/alert-rules/:id', requires('alerts:write'), async (ctx) => {
    const ruleId = storedResourceId(ctx.params.id, 'alert rule');
    const rule = toRuleData(ruleId, ctx.state.principal.envId, alertRuleBodySchema.parse(ctx.request.body));
    await checkReferences(ctx.state.principal.tenantId, rule);
    await respond(ctx, ruleId, { kind: 'UpdateAlertRule', rule });
  });

  router.patch('/alert-rules/:id', requires('alerts:write'), async (ctx) => {
    const ruleId = storedResourceId(ctx.params.id, 'alert rule');
    const changes = ruleFieldsFrom(alertRulePatchSchema.parse(ctx.request.body));
    // One read of the stream: the references are checked on the rule the decider will patch.
    const loaded = await loadStream(deps.eventStore, alertRuleDecider, alertRuleStream(ruleId), ctx.state.principal.tenantId, 'alert rule');
    if (loaded.state.status !== 'active') throw notFound('alert rule');
    await checkReferences(ctx.state.principal.tenantId, patchedRule(loaded.state.rule!, changes));
    await respond(ctx, ruleId, { kind: 'PatchAlertRule', ruleId, changes }, loaded);
  });

  router.delete('/alert-rules/:id', requires('alerts:write'), async (ctx) => {
    const ruleId = storedResourceId(ctx.params.id, 'alert rule');
    const outcome = await run(ctx, { kind: 'DeleteAlertRule', ruleId }, ruleId, ifMatchRevision(ctx));
    commandHeaders(ctx, outcome);
    const resolved = await deps.resolveActiveIncidentOfDeletedRule(envelopeFrom(ctx), ruleId);
    ok(ctx, { id: ruleId, deleted: true, resolved_incident_id: resolved });
  });
  return router;
}
