/**
 * Alert rule command routes. Checks that need I/O (the metric is registered, the escalation policy
 * exists in the tenant, the cluster is one of the environment's) run before the decider
 * (commands/alert-rules.ts), so a refused request changes nothing. A rule left disabled or deleted
 * has its open incident resolved: nobody evaluates it any more, so nothing else would.
 */
import type { AlertRule, AlertRuleDeleted } from '../src/contract/alert-rules.js';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import {
  handleCommand,
  loadStream,
  type CommandDeps,
  type CommandEnvelope,
  type LoadedStream,
} from '../src/commanding/command-handler.js';
import {
  alertRuleStream,
  type AlertRuleData,
  type AlertRuleEvent,
  type AlertRuleState,
} from '../src/events/alert-rule.js';
import { RULE_EVALUATION_RETENTION, ruleEvaluationStream } from '../src/events/rule-evaluation.js';
import { commandHeaders, envelopeFrom, ifMatchRevision, type CommandContext } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest, notFound, type ProblemFieldError } from '../src/http/problem.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import { alertRuleDecider, patchedRule, ruleFieldsFrom, toRuleData, type AlertRuleCommand } from './alert-rules.js';
import { alertRuleBodySchema, alertRulePatchSchema } from '../src/contract/bodies/alert-rules.js';

export interface AlertRuleCommandDeps extends CommandDeps {
  metricIds: () => string[];
  policyExists: (tenantId: string, policyId: string) => Promise<boolean>;
  /** The cluster ids of an environment, or null when they are not known (then any cluster_id is accepted). */
  clusterIds: (envId: string) => readonly string[] | null;
  viewRule: (tenantId: string, id: string) => Promise<AlertRule | null>;
  /** Resolves the rule's active incident, if any, for the reason given; returns its id. */
  resolveActiveIncident: (
    envelope: CommandEnvelope,
    ruleId: string,
    reason: 'rule_deleted' | 'rule_disabled',
  ) => Promise<string | null>;
}

export type RuleReferenceDeps = Pick<AlertRuleCommandDeps, 'metricIds' | 'policyExists' | 'clusterIds'>;

/**
 * The metric, the escalation policy and the cluster a rule names must exist (a patched rule is
 * checked whole); the rule backtest checks an unsaved rule with the same function.
 */
export async function ruleReferenceErrors(
  deps: RuleReferenceDeps,
  tenantId: string,
  rule: Pick<AlertRuleData, 'metric' | 'escalationPolicyId' | 'clusterId' | 'envId'>,
): Promise<ProblemFieldError[]> {
  const known = deps.metricIds();
  const errors: ProblemFieldError[] = [];
  if (!known.includes(rule.metric))
    errors.push({ path: '/metric', message: `unknown metric; known metrics: ${known.join(', ')}` });
  // A cluster the environment does not have would make every evaluation fail: the rule would be blind.
  const clusters = rule.clusterId === null ? null : deps.clusterIds(rule.envId);
  if (clusters && !clusters.includes(rule.clusterId!)) {
    errors.push({
      path: '/cluster_id',
      message: `not a cluster of the environment; its clusters: ${clusters.join(', ')}`,
    });
  }
  if (!(await deps.policyExists(tenantId, rule.escalationPolicyId))) {
    errors.push({ path: '/escalation_policy_id', message: 'no escalation policy with this id in the tenant' });
  }
  return errors;
}

export function alertRuleCommandRoutes(deps: AlertRuleCommandDeps) {
  const router = new Router<AppState>();

  const checkReferences = async (
    tenantId: string,
    rule: Pick<AlertRuleData, 'metric' | 'escalationPolicyId' | 'clusterId' | 'envId'>,
  ) => {
    const errors = await ruleReferenceErrors(deps, tenantId, rule);
    if (errors.length > 0) throw badRequest(errors.map((e) => `${e.path.slice(1)}: ${e.message}`).join('; '), errors);
  };
  const run = (
    ctx: CommandContext,
    command: AlertRuleCommand,
    ruleId: string,
    expectedRevision?: bigint,
    loaded?: LoadedStream<AlertRuleState, AlertRuleEvent>,
  ) =>
    handleCommand(deps, alertRuleDecider, {
      stream: alertRuleStream(ruleId),
      resourceName: 'alert rule',
      command,
      envelope: envelopeFrom(ctx),
      expectedRevision,
      newStream: command.kind === 'CreateAlertRule',
      loaded,
    });
  const respond = async (
    ctx: CommandContext,
    ruleId: string,
    command: AlertRuleCommand,
    loaded?: LoadedStream<AlertRuleState, AlertRuleEvent>,
  ) => {
    const outcome = await run(ctx, command, ruleId, ifMatchRevision(ctx), loaded);
    if (outcome.state.status === 'active' && !outcome.state.rule!.isEnabled) {
      await deps.resolveActiveIncident(envelopeFrom(ctx), ruleId, 'rule_disabled');
    }
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
    const body = alertRuleBodySchema.parse(ctx.request.body);
    // The rule keeps its environment: its cluster is checked against that one, read once here.
    const loaded = await loadStream(
      deps.eventStore,
      alertRuleDecider,
      alertRuleStream(ruleId),
      ctx.state.principal.tenantId,
      'alert rule',
    );
    if (loaded.state.status !== 'active') throw notFound('alert rule');
    const rule = toRuleData(ruleId, loaded.state.rule!.envId, body);
    await checkReferences(ctx.state.principal.tenantId, rule);
    await respond(ctx, ruleId, { kind: 'UpdateAlertRule', rule }, loaded);
  });

  router.patch('/alert-rules/:id', requires('alerts:write'), async (ctx) => {
    const ruleId = storedResourceId(ctx.params.id, 'alert rule');
    const changes = ruleFieldsFrom(alertRulePatchSchema.parse(ctx.request.body));
    // One read of the stream: the references are checked on the rule the decider will patch.
    const loaded = await loadStream(
      deps.eventStore,
      alertRuleDecider,
      alertRuleStream(ruleId),
      ctx.state.principal.tenantId,
      'alert rule',
    );
    if (loaded.state.status !== 'active') throw notFound('alert rule');
    await checkReferences(ctx.state.principal.tenantId, patchedRule(loaded.state.rule!, changes));
    await respond(ctx, ruleId, { kind: 'PatchAlertRule', ruleId, changes }, loaded);
  });

  router.delete('/alert-rules/:id', requires('alerts:write'), async (ctx) => {
    const ruleId = storedResourceId(ctx.params.id, 'alert rule');
    const outcome = await run(ctx, { kind: 'DeleteAlertRule', ruleId }, ruleId, ifMatchRevision(ctx));
    commandHeaders(ctx, outcome);
    const resolved = await deps.resolveActiveIncident(envelopeFrom(ctx), ruleId, 'rule_deleted');
    const deleted: AlertRuleDeleted = { id: ruleId, deleted: true, resolved_incident_id: resolved };
    ok(ctx, deleted);
  });
  return router;
}
