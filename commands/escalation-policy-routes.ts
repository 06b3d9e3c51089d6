/** Escalation policy command routes (POST/PUT/DELETE); the decider is commands/escalation-policies.ts. */
import type { Deleted } from '../src/contract/answer-pieces.js';
import type { EscalationPolicy } from '../src/contract/escalation-policies.js';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { handleCommand, type CommandDeps } from '../src/commanding/command-handler.js';
import { rejectConflict } from '../src/commanding/domain-rejection.js';
import { escalationPolicyStream, type EscalationStage } from '../src/events/escalation-policy.js';
import { commandHeaders, envelopeFrom, ifMatchRevision, type CommandContext } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest, type ProblemFieldError } from '../src/http/problem.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import {
  escalationPolicyDecider,
  parseEscalationPolicyBody,
  type EscalationPolicyCommand,
} from './escalation-policies.js';

export interface EscalationPolicyCommandDeps extends CommandDeps {
  /** One error per target that names a user, group, schedule or channel missing from the tenant. */
  unknownTargets: (tenantId: string, stages: EscalationStage[]) => Promise<ProblemFieldError[]>;
  /** Enabled alert rules of the tenant that start this policy (it cannot be deleted while there are any). */
  enabledRulesUsing: (tenantId: string, policyId: string) => Promise<{ id: string; name: string }[]>;
  /** Read-model view of a policy for the response, after the command. */
  viewPolicy: (tenantId: string, id: string) => Promise<EscalationPolicy | null>;
}

export function escalationPolicyCommandRoutes(deps: EscalationPolicyCommandDeps) {
  const router = new Router<AppState>();
  const run = (ctx: CommandContext, command: EscalationPolicyCommand, expectedRevision?: bigint) =>
    handleCommand(deps, escalationPolicyDecider, {
      stream: escalationPolicyStream(command.policyId),
      resourceName: 'escalation policy',
      command,
      envelope: envelopeFrom(ctx),
      expectedRevision,
    });

  /** The body, valid and naming only targets that exist in the tenant; otherwise a 400. */
  const validPolicy = async (ctx: CommandContext) => {
    const policy = parseEscalationPolicyBody(ctx.request.body);
    const missing = await deps.unknownTargets(ctx.state.principal.tenantId, policy.stages);
    if (missing.length > 0) throw badRequest('some targets do not exist in this tenant', missing);
    return policy;
  };

  router.post('/escalation-policies', requires('escalation:write'), async (ctx) => {
    const policy = await validPolicy(ctx);
    const policyId = randomUUID();
    const outcome = await run(ctx, { kind: 'CreateEscalationPolicy', policyId, ...policy });
    commandHeaders(ctx, outcome);
    ctx.set('Location', `${ctx.path.replace(/\/$/, '')}/${policyId}`);
    ok(ctx, await deps.viewPolicy(ctx.state.principal.tenantId, policyId), 201);
  });

  router.put('/escalation-policies/:id', requires('escalation:write'), async (ctx) => {
    const policyId = storedResourceId(ctx.params.id, 'escalation policy');
    const expected = ifMatchRevision(ctx);
    const policy = await validPolicy(ctx);
    const outcome = await run(ctx, { kind: 'ReplaceEscalationPolicy', policyId, ...policy }, expected);
    commandHeaders(ctx, outcome);
    ok(ctx, await deps.viewPolicy(ctx.state.principal.tenantId, policyId));
  });

  router.delete('/escalation-policies/:id', requires('escalation:write'), async (ctx) => {
    const policyId = storedResourceId(ctx.params.id, 'escalation policy');
    const expected = ifMatchRevision(ctx);
    // Disabled rules may keep pointing at a deleted policy: enabling such a rule again is refused
    // by the alert-rule validation, which requires the policy to exist.
    const rules = await deps.enabledRulesUsing(ctx.state.principal.tenantId, policyId);
    if (rules.length > 0) {
      throw rejectConflict(
        `the escalation policy is used by enabled alert rules: ${rules.map((rule) => rule.name).join(', ')}`,
        { referenced_by: rules },
      );
    }
    const outcome = await run(ctx, { kind: 'DeleteEscalationPolicy', policyId }, expected);
    commandHeaders(ctx, outcome);
    const deleted: Deleted = { id: policyId, deleted: true };
    ok(ctx, deleted);
  });
  return router;
}
