/**
 * Heartbeat command routes: create, replace, rotate or revoke the ping address, delete. Checked
 * before the decider (commands/heartbeats.ts), so a refused request changes nothing: the escalation
 * policy must be the tenant's, and the name must not be another live heartbeat's of the tenant
 * (compared ignoring case; a read-model check: a name grants nothing, it only keeps the list
 * readable). The token is made here, shown once (create, rotate) and handed to the decider hashed.
 */
import type { Deleted } from '../src/contract/answer-pieces.js';
import type { Heartbeat, HeartbeatWithAddress } from '../src/contract/heartbeats.js';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { handleCommand, type CommandDeps, type CommandEnvelope } from '../src/commanding/command-handler.js';
import { heartbeatStream, type HeartbeatSettings } from '../src/events/heartbeat.js';
import { commandHeaders, envelopeFrom, ifMatchRevision, type CommandContext } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest, conflict, notFound } from '../src/http/problem.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import { newPingToken, pingTokenHash, pingTokenHint } from './heartbeat-token.js';
import {
  heartbeatBodySchema,
  heartbeatDecider,
  toHeartbeatSettings,
  type HashedToken,
  type HeartbeatCommand,
} from './heartbeats.js';

export interface HeartbeatCommandDeps extends CommandDeps {
  policyExists: (tenantId: string, policyId: string) => Promise<boolean>;
  /** The id of the tenant's live heartbeat with this name (case ignored), or null. */
  heartbeatNamed: (tenantId: string, name: string) => Promise<string | null>;
  viewHeartbeat: (tenantId: string, id: string) => Promise<Heartbeat | null>;
  /** The deployment's key for ping tokens' keyed hashes. */
  tokenKey: () => Promise<Buffer>;
  /** PUBLIC_URL: where the ping address lives. */
  publicUrl: string;
  /** Resolves the heartbeat's open incident, saying why (it was disabled or deleted). */
  resolveOpenIncident: (envelope: CommandEnvelope, heartbeatId: string, note: string) => Promise<unknown>;
}

export function heartbeatCommandRoutes(deps: HeartbeatCommandDeps) {
  const router = new Router<AppState>();

  const check = async (tenantId: string, settings: HeartbeatSettings) => {
    if (!(await deps.policyExists(tenantId, settings.escalationPolicyId)))
      throw badRequest('escalation_policy_id: no escalation policy with this id in the tenant', [
        { path: '/escalation_policy_id', message: 'no escalation policy with this id in the tenant' },
      ]);
    const holder = await deps.heartbeatNamed(tenantId, settings.name);
    if (holder !== null && holder !== settings.heartbeatId)
      throw conflict(
        `a heartbeat named "${settings.name}" already exists in the tenant (names are compared ignoring case)`,
      );
  };
  const respond = async (ctx: CommandContext, heartbeatId: string, command: HeartbeatCommand) => {
    const outcome = await handleCommand(deps, heartbeatDecider, {
      stream: heartbeatStream(heartbeatId),
      resourceName: 'heartbeat',
      command,
      envelope: envelopeFrom(ctx),
      expectedRevision: command.kind === 'CreateHeartbeat' ? undefined : ifMatchRevision(ctx),
      newStream: command.kind === 'CreateHeartbeat',
    });
    commandHeaders(ctx, outcome);
    return outcome;
  };
  const newToken = async (): Promise<{ token: string; hashed: HashedToken }> => {
    const token = newPingToken();
    return {
      token,
      hashed: { tokenHash: pingTokenHash(await deps.tokenKey(), token), tokenHint: pingTokenHint(token) },
    };
  };
  const view = async (ctx: CommandContext, id: string) => {
    const heartbeat = await deps.viewHeartbeat(ctx.state.principal.tenantId, id);
    if (!heartbeat) throw notFound('heartbeat');
    return heartbeat;
  };
  const withAddress = (heartbeat: Heartbeat, token: string): HeartbeatWithAddress => ({
    ...heartbeat,
    token,
    ping_url: `${deps.publicUrl.replace(/\/$/, '')}/hb/${token}`,
  });

  router.post('/heartbeats', requires('alerts:write'), async (ctx) => {
    const settings = toHeartbeatSettings(randomUUID(), heartbeatBodySchema.parse(ctx.request.body));
    await check(ctx.state.principal.tenantId, settings);
    const { token, hashed } = await newToken();
    await respond(ctx, settings.heartbeatId, { kind: 'CreateHeartbeat', settings, token: hashed });
    ctx.set('Location', `${ctx.path.replace(/\/$/, '')}/${settings.heartbeatId}`);
    ctx.set('Cache-Control', 'no-store');
    ok(ctx, withAddress(await view(ctx, settings.heartbeatId), token), 201);
  });

  router.put('/heartbeats/:id', requires('alerts:write'), async (ctx) => {
    const heartbeatId = storedResourceId(ctx.params.id, 'heartbeat');
    const settings = toHeartbeatSettings(heartbeatId, heartbeatBodySchema.parse(ctx.request.body));
    await check(ctx.state.principal.tenantId, settings);
    await respond(ctx, heartbeatId, { kind: 'UpdateHeartbeat', settings });
    if (!settings.enabled) await deps.resolveOpenIncident(envelopeFrom(ctx), heartbeatId, 'the heartbeat was disabled');
    ok(ctx, await view(ctx, heartbeatId));
  });

  /** A new ping address, shown once; the old one is refused from now on. */
  router.post('/heartbeats/:id/rotate-token', requires('alerts:write'), async (ctx) => {
    const heartbeatId = storedResourceId(ctx.params.id, 'heartbeat');
    const { token, hashed } = await newToken();
    await respond(ctx, heartbeatId, { kind: 'RotateHeartbeatToken', heartbeatId, token: hashed });
    ctx.set('Cache-Control', 'no-store');
    ok(ctx, withAddress(await view(ctx, heartbeatId), token));
  });

  /** No ping address until the next rotation; the monitor keeps watching (silence still pages). */
  router.post('/heartbeats/:id/revoke-token', requires('alerts:write'), async (ctx) => {
    const heartbeatId = storedResourceId(ctx.params.id, 'heartbeat');
    await respond(ctx, heartbeatId, { kind: 'RevokeHeartbeatToken', heartbeatId });
    ok(ctx, await view(ctx, heartbeatId));
  });

  router.delete('/heartbeats/:id', requires('alerts:write'), async (ctx) => {
    const heartbeatId = storedResourceId(ctx.params.id, 'heartbeat');
    await respond(ctx, heartbeatId, { kind: 'DeleteHeartbeat', heartbeatId });
    await deps.resolveOpenIncident(envelopeFrom(ctx), heartbeatId, 'the heartbeat was deleted');
    const deleted: Deleted = { id: heartbeatId, deleted: true };
    ok(ctx, deleted);
  });
  return router;
}
