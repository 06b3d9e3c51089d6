/** Notification channel command routes (POST/PUT/DELETE); the decider is commands/channels.ts. */
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { handleCommand, type CommandDeps } from '../src/commanding/command-handler.js';
import { rejectConflict } from '../src/commanding/domain-rejection.js';
import { channelStream } from '../src/events/channel.js';
import { commandHeaders, envelopeFrom, ifMatchRevision, type CommandContext } from '../src/http/command-context.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import { channelDecider, parseChannelBody, type ChannelCommand } from './channels.js';

export interface ChannelCommandDeps extends CommandDeps {
  /** Read-model view of a channel for the response (masked), after the command. */
  viewChannel: (tenantId: string, id: string) => Promise<Record<string, unknown> | null>;
  /** Escalation policies that reference the channel (a referenced channel cannot be deleted). */
  channelReferences: (tenantId: string, id: string) => Promise<{ id: string; name: string }[]>;
}

export function channelCommandRoutes(deps: ChannelCommandDeps) {
  const router = new Router<AppState>();
  const run = (ctx: CommandContext, command: ChannelCommand, expectedRevision?: bigint) =>
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
    const id = storedResourceId(ctx.params.id, 'notification channel');
    const body = parseChannelBody(ctx.request.body);
    const outcome = await run(ctx, { kind: 'UpdateChannel', channelId: id, ...body }, ifMatchRevision(ctx));
    commandHeaders(ctx, outcome);
    ok(ctx, await deps.viewChannel(ctx.state.principal.tenantId, id));
  });

  router.delete('/notification-channels/:id', requires('channels:write'), async (ctx) => {
    const id = storedResourceId(ctx.params.id, 'notification channel');
    const expected = ifMatchRevision(ctx);
    const references = await deps.channelReferences(ctx.state.principal.tenantId, id);
    if (references.length > 0) {
      throw rejectConflict(`the channel is referenced by escalation policies: ${references.map((policy) => policy.name).join(', ')}`, { referenced_by: references });
    }
    const outcome = await run(ctx, { kind: 'DeleteChannel', channelId: id }, expected);
    commandHeaders(ctx, outcome);
    ok(ctx, { id, deleted: true });
  });
  return router;
}
