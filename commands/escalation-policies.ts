/**
 * Escalation policies (records only): the decider (pure) and the command routes (POST/PUT/DELETE).
 * Events go to `escalationPolicy-<id>`; projections/escalation-policies.ts builds the read model.
 * The body rules live in escalation-policy-body.ts, the checks against other resources in
 * escalation-policy-references.ts; both run before the decider, so a refused request changes nothing.
 */
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { handleCommand, type CommandDeps } from '../src/commanding/command-handler.js';
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import type { EscalationPolicyEvent } from '../src/events/escalation-policy.js';
import { commandHeaders, envelopeFrom, ifMatchRevision } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest, notFound } from '../src/http/problem.js';
import type { AppState } from '../src/http/state.js';
import type { ReadModelReader } from '../src/readstore/port.js';
import { parseEscalationPolicyBody, type EscalationPolicyDefinition } from './escalation-policy-body.js';
import { enabledRulesUsingPolicy, unknownTargetErrors } from './escalation-policy-references.js';

export interface EscalationPolicyState {
  status: 'absent' | 'active' | 'deleted';
}

export type EscalationPolicyCommand =
  | ({ kind: 'CreateEscalationPolicy'; policyId: string } & EscalationPolicyDefinition)
  | ({ kind: 'ReplaceEscalationPolicy'; policyId: string } & EscalationPolicyDefinition)
  | { kind: 'DeleteEscalationPolicy'; policyId: string };

export const escalationPolicyDecider: Decider<EscalationPolicyState, EscalationPolicyCommand, EscalationPolicyEvent> = {
  initialState: () => ({ status: 'absent' }),
  evolve: (_state, event) => {
    switch (event.type) {
      case 'EscalationPolicyCreated':
      case 'EscalationPolicyReplaced':
        return { status: 'active' };
      case 'EscalationPolicyDeleted':
        return { status: 'deleted' };
    }
  },
  decide: (command, state) => {
    switch (command.kind) {
      case 'CreateEscalationPolicy': {
        if (state.status !== 'absent') throw rejectConflict('an escalation policy with this id already exists');
        const { kind: _kind, ...data } = command;
        return [{ type: 'EscalationPolicyCreated', data }];
      }
      case 'ReplaceEscalationPolicy': {
        // A deleted policy stays deleted: its id is never reused, so references to it stay dangling
        // rather than silently pointing at a different policy.
        if (state.status !== 'active') throw rejectNotFound('escalation policy');
        const { kind: _kind, ...data } = command;
        return [{ type: 'EscalationPolicyReplaced', data }];
      }
      case 'DeleteEscalationPolicy':
        if (state.status !== 'active') throw rejectNotFound('escalation policy');
        return [{ type: 'EscalationPolicyDeleted', data: { policyId: command.policyId } }];
    }
  },
};

export const escalationPolicyStream = (id: string) => `escalationPolicy-${id}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface EscalationPolicyCommandDeps extends CommandDeps {
  /** Read models consulted for references (users, groups, channels, alert rules). */
  reader: ReadModelReader;
  /** Read-model view of a policy for the response, after the command. */
  viewPolicy: (tenantId: string, id: string) => Promise<Record<string, unknown> | null>;
}

export function escalationPolicyCommandRoutes(deps: EscalationPolicyCommandDeps) {
  const router = new Router<AppState>();
  const run = (ctx: Parameters<typeof envelopeFrom>[0], command: EscalationPolicyCommand, expectedRevision?: bigint) =>
    handleCommand(deps, escalationPolicyDecider, {
      stream: escalationPolicyStream(command.policyId),
      resourceName: 'escalation policy',
      command,
      envelope: envelopeFrom(ctx),
      expectedRevision,
    });

  /** The body, valid and naming only targets that exist in the tenant; otherwise a 400. */
  const validPolicy = async (ctx: Parameters<typeof envelopeFrom>[0]) => {
    const policy = parseEscalationPolicyBody(ctx.request.body);
    const missing = await unknownTargetErrors(deps.reader, ctx.state.principal.tenantId, policy.stages);
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
    const policyId = ctx.params.id!;
    if (!UUID.test(policyId)) throw notFound('escalation policy');
    const expected = ifMatchRevision(ctx);
    const policy = await validPolicy(ctx);
    const outcome = await run(ctx, { kind: 'ReplaceEscalationPolicy', policyId, ...policy }, expected);
    commandHeaders(ctx, outcome);
    ok(ctx, await deps.viewPolicy(ctx.state.principal.tenantId, policyId));
  });

  router.delete('/escalation-policies/:id', requires('escalation:write'), async (ctx) => {
    const policyId = ctx.params.id!;
    if (!UUID.test(policyId)) throw notFound('escalation policy');
    const expected = ifMatchRevision(ctx);
    // Disabled rules may keep pointing at a deleted policy: enabling such a rule again is refused
    // by the alert-rule validation, which requires the policy to exist.
    const rules = await enabledRulesUsingPolicy(deps.reader, ctx.state.principal.tenantId, policyId);
    if (rules.length > 0) {
      throw rejectConflict(`the escalation policy is used by enabled alert rules: ${rules.map((rule) => rule.name).join(', ')}`, { referenced_by: rules });
    }
    const outcome = await run(ctx, { kind: 'DeleteEscalationPolicy', policyId }, expected);
    commandHeaders(ctx, outcome);
    ok(ctx, { id: policyId, deleted: true });
  });
  return router;
}
