/**
 * Notification channels: the decider (pure) and the command routes (POST/PUT/DELETE).
 * Events go to `channel-<id>`; projections/channels.ts builds the read model.
 */
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { handleCommand, type CommandDeps } from '../src/commanding/command-handler.js';
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import type { ChannelEvent } from '../src/events/channel.js';
import { commandHeaders, envelopeFrom, ifMatchRevision } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { notFound } from '../src/http/problem.js';
import type { AppState } from '../src/http/state.js';
import { keepMaskedSecrets, parseChannelBody, type ChannelType } from './channel-config.js';

export interface ChannelState {
  status: 'absent' | 'active' | 'deleted';
  type?: ChannelType;
  config?: Record<string, unknown>;
}

export type ChannelCommand =
  | { kind: 'CreateChannel'; channelId: string; name: string; type: ChannelType; config: Record<string, unknown> }
  | { kind: 'UpdateChannel'; channelId: string; name: string; type: ChannelType; config: Record<string, unknown> }
  | { kind: 'DeleteChannel'; channelId: string };

export const channelDecider: Decider<ChannelState, ChannelCommand, ChannelEvent> = {
  initialState: () => ({ status: 'absent' }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'ChannelCreated':
      case 'ChannelUpdated':
        return { status: 'active', type: event.data.type, config: event.data.config };
      case 'ChannelDeleted':
        return { ...state, status: 'deleted' };
    }
  },
  decide: (command, state) => {
    switch (command.kind) {
      case 'CreateChannel':
        if (state.status !== 'absent') throw rejectConflict('a notification channel with this id already exists');
        return [{ type: 'ChannelCreated', data: { channelId: command.channelId, name: command.name, type: command.type, config: command.config } }];
      case 'UpdateChannel': {
        if (state.status !== 'active') throw rejectNotFound('notification channel');
        const config = keepMaskedSecrets(command.type, command.config, state.config, state.type);
        return [{ type: 'ChannelUpdated', data: { channelId: command.channelId, name: command.name, type: command.type, config } }];
      }
      case 'DeleteChannel':
        if (state.status !== 'active') throw rejectNotFound('notification channel');
        return [{ type: 'ChannelDeleted', data: { channelId: command.channelId } }];
    }
  },
};

export const channelStream = (id: string) => `channel-${id}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ChannelCommandDeps extends CommandDeps {
  /** Read-model view of a channel for the response (masked), after the command. */
  viewChannel: (tenantId: string, id: string) => Promise<Record<string, unknown> | null>;
  /** Names of escalation policies that reference the channel (a referenced channel cannot be deleted). */
  channelReferences: (tenantId: string, id: string) => Promise<string[]>;
}

export function channelCommandRoutes(deps: ChannelCommandDeps) {
  const router = new Router<AppState>();
  const run = (ctx: Parameters<typeof envelopeFrom>[0], command: ChannelCommand, expectedRevision?: bigint) =>
    handleCommand(deps, channelDecider, {
      stream: channelStream(command.channelId),
      resourceName: 'notification channel',
      command,
      envelope: envelopeFrom(ctx),
      expectedRevision,
      newStream: command.kind === 'CreateChannel',
    });

  router.post('/notification-channels', requires('channels:write'), async (ctx) => {
    const body = parseChannelBody(ctx.request.body);
    const channelId = randomUUID();
    const outcome = await run(ctx, { kind: 'CreateChannel', channelId, ...body });
    commandHeaders(ctx, outcome);
    ctx.set('Location', `${ctx.path.replace(/\/$/, '')}/${channelId}`);
    ok(ctx, await deps.viewChannel(ctx.state.principal.tenantId, channelId), 201);
  });

  router.put('/notification-channels/:id', requires('channels:write'), async (ctx) => {
    if (!UUID.test(ctx.params.id!)) throw notFound('notification channel');
    const body = parseChannelBody(ctx.request.body);
    const outcome = await run(ctx, { kind: 'UpdateChannel', channelId: ctx.params.id!, ...body }, ifMatchRevision(ctx));
    commandHeaders(ctx, outcome);
    ok(ctx, await deps.viewChannel(ctx.state.principal.tenantId, ctx.params.id!));
  });

  router.delete('/notification-channels/:id', requires('channels:write'), async (ctx) => {
    const id = ctx.params.id!;
    if (!UUID.test(id)) throw notFound('notification channel');
    const expected = ifMatchRevision(ctx);
    const references = await deps.channelReferences(ctx.state.principal.tenantId, id);
    if (references.length > 0) {
      throw rejectConflict(`the channel is referenced by escalation policies: ${references.join(', ')}`, { referenced_by: references });
    }
    const outcome = await run(ctx, { kind: 'DeleteChannel', channelId: id }, expected);
    commandHeaders(ctx, outcome);
    ok(ctx, { id, deleted: true });
  });
  return router;
}
