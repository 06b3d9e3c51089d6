/**
 * Integration command routes: create, replace, rotate or revoke the routing key, delete. Checked
 * before the decider (commands/integrations.ts), so a refused request changes nothing: the
 * escalation policy must be the tenant's, and the name must not be another live integration's of
 * the tenant (compared ignoring case). The key is made here, shown once (create, rotate) and handed
 * to the decider hashed.
 */
import type { Deleted } from '../src/contract/answer-pieces.js';
import type { Integration, IntegrationWithKey } from '../src/contract/integrations.js';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { handleCommand, type CommandDeps } from '../src/commanding/command-handler.js';
import { integrationStream, type IntegrationSettings } from '../src/events/integration.js';
import { commandHeaders, envelopeFrom, ifMatchRevision, type CommandContext } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest, conflict, notFound } from '../src/http/problem.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import { receiverPath } from './receiver-paths.js';
import { newRoutingKey, routingKeyHash, routingKeyHint } from './integration-key.js';
import {
  integrationBodySchema,
  integrationDecider,
  rotateRoutingKeyBodySchema,
  toIntegrationSettings,
  type HashedKey,
  type IntegrationCommand,
} from './integrations.js';

/** Where an Events API v2 sender posts (Alertmanager's `url:`), under PUBLIC_URL. */
export const EVENTS_V2_PATH = '/v2/enqueue';

export interface IntegrationCommandDeps extends CommandDeps {
  policyExists: (tenantId: string, policyId: string) => Promise<boolean>;
  /** The id of the tenant's live integration with this name (case ignored), or null. */
  integrationNamed: (tenantId: string, name: string) => Promise<string | null>;
  viewIntegration: (tenantId: string, id: string) => Promise<Integration | null>;
  /** The deployment's key for routing keys' keyed hashes. */
  tokenKey: () => Promise<Buffer>;
  /** PUBLIC_URL: where the events address lives. */
  publicUrl: string;
}

export function integrationCommandRoutes(deps: IntegrationCommandDeps) {
  const router = new Router<AppState>();

  const check = async (tenantId: string, settings: IntegrationSettings) => {
    if (!(await deps.policyExists(tenantId, settings.escalationPolicyId)))
      throw badRequest('escalation_policy_id: no escalation policy with this id in the tenant', [
        { path: '/escalation_policy_id', message: 'no escalation policy with this id in the tenant' },
      ]);
    const holder = await deps.integrationNamed(tenantId, settings.name);
    if (holder !== null && holder !== settings.integrationId)
      throw conflict(
        `an integration named "${settings.name}" already exists in the tenant (names are compared ignoring case)`,
      );
  };
  const respond = async (ctx: CommandContext, integrationId: string, command: IntegrationCommand) => {
    const outcome = await handleCommand(deps, integrationDecider, {
      stream: integrationStream(integrationId),
      resourceName: 'integration',
      command,
      envelope: envelopeFrom(ctx),
      expectedRevision: command.kind === 'CreateIntegration' ? undefined : ifMatchRevision(ctx),
      newStream: command.kind === 'CreateIntegration',
    });
    commandHeaders(ctx, outcome);
    return outcome;
  };
  const newKey = async (): Promise<{ routingKey: string; hashed: HashedKey }> => {
    const routingKey = newRoutingKey();
    return {
      routingKey,
      hashed: { keyHash: routingKeyHash(await deps.tokenKey(), routingKey), keyHint: routingKeyHint(routingKey) },
    };
  };
  const view = async (ctx: CommandContext, id: string) => {
    const integration = await deps.viewIntegration(ctx.state.principal.tenantId, id);
    if (!integration) throw notFound('integration');
    return integration;
  };
  const withKey = (integration: Integration, routingKey: string): IntegrationWithKey => ({
    ...integration,
    routing_key: routingKey,
    events_url: `${deps.publicUrl.replace(/\/$/, '')}${
      integration.kind === 'events_v2' ? EVENTS_V2_PATH : receiverPath(integration.kind, routingKey)
    }`,
  });

  router.post('/integrations', requires('integrations:write'), async (ctx) => {
    const settings = toIntegrationSettings(randomUUID(), integrationBodySchema.parse(ctx.request.body));
    await check(ctx.state.principal.tenantId, settings);
    const { routingKey, hashed } = await newKey();
    await respond(ctx, settings.integrationId, { kind: 'CreateIntegration', settings, key: hashed });
    ctx.set('Location', `${ctx.path.replace(/\/$/, '')}/${settings.integrationId}`);
    ctx.set('Cache-Control', 'no-store');
    ok(ctx, withKey(await view(ctx, settings.integrationId), routingKey), 201);
  });

  router.put('/integrations/:id', requires('integrations:write'), async (ctx) => {
    const integrationId = storedResourceId(ctx.params.id, 'integration');
    const settings = toIntegrationSettings(integrationId, integrationBodySchema.parse(ctx.request.body));
    await check(ctx.state.principal.tenantId, settings);
    await respond(ctx, integrationId, { kind: 'UpdateIntegration', settings });
    ok(ctx, await view(ctx, integrationId));
  });

  /** A new routing key, shown once; the replaced one keeps working for `grace_seconds`. */
  router.post('/integrations/:id/rotate-key', requires('integrations:write'), async (ctx) => {
    const integrationId = storedResourceId(ctx.params.id, 'integration');
    const body = rotateRoutingKeyBodySchema.parse(ctx.request.body ?? {});
    const { routingKey, hashed } = await newKey();
    await respond(ctx, integrationId, {
      kind: 'RotateIntegrationKey',
      integrationId,
      key: hashed,
      graceSeconds: body.grace_seconds,
    });
    ctx.set('Cache-Control', 'no-store');
    ok(ctx, withKey(await view(ctx, integrationId), routingKey));
  });

  /** No routing key (neither the current nor a replaced one) until the next rotation. */
  router.post('/integrations/:id/revoke-key', requires('integrations:write'), async (ctx) => {
    const integrationId = storedResourceId(ctx.params.id, 'integration');
    await respond(ctx, integrationId, { kind: 'RevokeIntegrationKey', integrationId });
    ok(ctx, await view(ctx, integrationId));
  });

  router.delete('/integrations/:id', requires('integrations:write'), async (ctx) => {
    const integrationId = storedResourceId(ctx.params.id, 'integration');
    await respond(ctx, integrationId, { kind: 'DeleteIntegration', integrationId });
    const deleted: Deleted = { id: integrationId, deleted: true };
    ok(ctx, deleted);
  });
  return router;
}
