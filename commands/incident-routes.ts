/**
 * Incident command routes: paging by hand (POST /incidents), acknowledge, resolve (with an optional
 * note) and notes; the decider is commands/incidents.ts.
 */
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { handleCommand, type CommandDeps } from '../src/commanding/command-handler.js';
import {
  incidentIdFor,
  incidentStream,
  publicIncident,
  type IncidentState,
  type IncidentView,
} from '../src/events/incident.js';
import { commandHeaders, envelopeFrom, type CommandContext } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest } from '../src/http/problem.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import { incidentDecider, type IncidentCommand } from './incidents.js';
import {
  acknowledgeIncidentBodySchema,
  incidentNoteBodySchema,
  manualIncidentBodySchema,
  resolveIncidentBodySchema,
} from '../src/contract/bodies/incidents.js';

export interface IncidentCommandDeps extends CommandDeps {
  /** Whether the tenant has an escalation policy with this id (paging by hand names one). */
  policyExists?: (tenantId: string, policyId: string) => Promise<boolean>;
  /** Told of every command outcome that resolved an incident (the resolutions counter). */
  onResolved: (outcome: { events: unknown[]; state: IncidentState }) => void;
}

export function incidentCommandRoutes(deps: IncidentCommandDeps) {
  const router = new Router<AppState>();

  const run = async (ctx: CommandContext, command: Exclude<IncidentCommand, { kind: 'TriggerIncident' }>) => {
    const outcome = await handleCommand(deps, incidentDecider, {
      stream: incidentStream(command.incidentId),
      resourceName: 'incident',
      command,
      envelope: envelopeFrom(ctx),
    });
    if (command.kind === 'ResolveIncident') deps.onResolved(outcome);
    commandHeaders(ctx, outcome);
    const { exists: _exists, ...view } = outcome.state as { exists: true } & IncidentView;
    ok(ctx, publicIncident(view));
  };
  const incidentId = (ctx: { params: Record<string, string | undefined> }) =>
    storedResourceId(ctx.params.id, 'incident');

  /**
   * Paging by hand: a new incident (source `manual`, its own subject, so each request opens one)
   * on an escalation policy of the tenant, which the escalation manager pages as any other.
   */
  router.post('/incidents', requires('incidents:write'), async (ctx) => {
    const body = manualIncidentBodySchema.parse(ctx.request.body);
    const tenantId = ctx.state.principal.tenantId;
    if (!deps.policyExists || !(await deps.policyExists(tenantId, body.escalation_policy_id)))
      throw badRequest('escalation_policy_id: no escalation policy with this id in the tenant', [
        { path: '/escalation_policy_id', message: 'no escalation policy with this id in the tenant' },
      ]);
    const subject = `manual:${randomUUID()}`;
    const id = incidentIdFor(subject, 1);
    const outcome = await handleCommand(deps, incidentDecider, {
      stream: incidentStream(id),
      resourceName: 'incident',
      command: {
        kind: 'TriggerIncident',
        incident: {
          incidentId: id,
          source: 'manual',
          subject,
          title: body.title,
          detail: body.details ?? null,
          ruleIds: [],
          ruleId: null,
          ruleName: null,
          ordinal: 1,
          currentValue: null,
          severity: body.severity,
          metric: null,
          condition: null,
          threshold: null,
          envId: null,
          clusterId: null,
          escalationPolicyId: body.escalation_policy_id,
        },
      },
      envelope: envelopeFrom(ctx),
      newStream: true,
    });
    commandHeaders(ctx, outcome);
    ctx.set('Location', `${ctx.path.replace(/\/$/, '')}/${id}`);
    const { exists: _exists, ...view } = outcome.state as { exists: true } & IncidentView;
    ok(ctx, publicIncident(view), 201);
  });

  router.post('/incidents/:id/acknowledge', requires('incidents:write'), async (ctx) => {
    acknowledgeIncidentBodySchema.parse(ctx.request.body ?? {});
    await run(ctx, { kind: 'AcknowledgeIncident', incidentId: incidentId(ctx) });
  });
  router.post('/incidents/:id/resolve', requires('incidents:write'), async (ctx) => {
    const body = resolveIncidentBodySchema.parse(ctx.request.body ?? {});
    await run(ctx, { kind: 'ResolveIncident', incidentId: incidentId(ctx), reason: 'manual', note: body.note });
  });
  router.post('/incidents/:id/notes', requires('incidents:write'), async (ctx) => {
    const body = incidentNoteBodySchema.parse(ctx.request.body ?? {});
    await run(ctx, { kind: 'AddIncidentNote', incidentId: incidentId(ctx), text: body.text, noteId: randomUUID() });
    ctx.status = 201;
  });
  return router;
}
