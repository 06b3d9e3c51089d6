/**
 * POST /escalation-policies/preview?at=&cycles=: the escalation preview of an unsaved policy body,
 * validated exactly as create validates it (the same schema, the same 400 for targets missing from
 * the tenant), so an editor can see who would be paged before saving. It changes nothing, so it
 * needs `escalation:read`; the answer is the one GET …/{id}/preview gives (queries/escalation-preview.ts),
 * passed in by the composition root.
 */
import Router from '@koa/router';
import type { EscalationStage } from '../src/events/escalation-policy.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { heavyRequest, type HeavyRequestSlots } from '../src/http/heavy-request-slots.js';
import { badRequest, type ProblemFieldError } from '../src/http/problem.js';
import { queryParameters } from '../src/http/query-parameters.js';
import type { AppState } from '../src/http/state.js';
import { parseEscalationPolicyBody, type EscalationPolicyDefinition } from './escalation-policies.js';

export interface EscalationPreviewCommandDeps {
  /** As create checks them: one error per target missing from the tenant. */
  unknownTargets: (tenantId: string, stages: EscalationStage[]) => Promise<ProblemFieldError[]>;
  /** The preview of a plan for the request's query (`at`, `cycles`); throws a ZodError for a bad query. */
  preview: (
    tenantId: string,
    policy: { id: null; name: string },
    plan: EscalationPolicyDefinition,
    query: unknown,
  ) => Promise<unknown>;
  /** Previews are heavy requests: capped per tenant and in total (src/http/heavy-request-slots.ts). */
  slots: HeavyRequestSlots;
}

export function escalationPreviewCommandRoutes(deps: EscalationPreviewCommandDeps): Router<AppState> {
  const router = new Router<AppState>();
  router.post(
    '/escalation-policies/preview',
    requires('escalation:read'),
    queryParameters(['at', 'cycles']),
    heavyRequest(deps.slots),
    async (ctx) => {
      const tenantId = ctx.state.principal.tenantId;
      const policy = parseEscalationPolicyBody(ctx.request.body);
      const missing = await deps.unknownTargets(tenantId, policy.stages);
      if (missing.length > 0) throw badRequest('some targets do not exist in this tenant', missing);
      ok(ctx, await deps.preview(tenantId, { id: null, name: policy.name }, policy, ctx.query));
    },
  );
  return router;
}
