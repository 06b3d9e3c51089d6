/**
 * Notification channel command routes: POST/PUT/DELETE, the webhook signing secret (returned once,
 * at creation and on rotation) and the test send. The decider is commands/channels.ts.
 */
import type { Deleted } from '../src/contract/answer-pieces.js';
import type { ChannelTestAnswer, NotificationChannel, RotatedSecret } from '../src/contract/channels.js';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { handleCommand, type CommandDeps } from '../src/commanding/command-handler.js';
import { rejectConflict } from '../src/commanding/domain-rejection.js';
import { channelStream, type ChannelEvent } from '../src/events/channel.js';
import type { ChannelType } from '../src/events/vocabulary.js';
import { commandHeaders, envelopeFrom, ifMatchRevision, type CommandContext } from '../src/http/command-context.js';
import { ok, okBare } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { badRequest, notFound } from '../src/http/problem.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import { channelDecider, parseChannelBody, type ChannelCommand } from './channels.js';
import { channelChangeBodySchema } from '../src/contract/bodies/channels.js';

type ChannelCreated = Extract<ChannelEvent, { type: 'ChannelCreated' }>;

/** A channel as a whole, as the answer to its creation knows it from its own event. */
export interface CreatedChannel {
  id: string;
  name: string;
  type: ChannelType;
  config: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface ChannelCommandDeps extends CommandDeps {
  /** Read-model view of a channel for the response (masked), after the command. */
  viewChannel: (tenantId: string, id: string) => Promise<NotificationChannel | null>;
  /** The same view (masked) of a channel the command has just created, without reading it back. */
  presentChannel: (channel: CreatedChannel) => NotificationChannel;
  /** Escalation policies that reference the channel (a referenced channel cannot be deleted). */
  channelReferences: (tenantId: string, id: string) => Promise<{ id: string; name: string }[]>;
  /** Sends a sample alert through the channel's real adapter (null: no such channel). */
  sendTest: (tenantId: string, id: string) => Promise<ChannelTestResult | null>;
  /** A new webhook signing secret. */
  newSigningSecret: () => string;
  /**
   * Whether a pager channel with this integration key would page back into the tenant's own
   * integration (the pager events URL is our own /v2/enqueue and the key is one of the tenant's
   * routing keys): a loop, refused. Default: never.
   */
  pagerLoopsBack?: (tenantId: string, integrationKey: string) => Promise<boolean>;
}

const LOOP_MESSAGE =
  "is a routing key of one of this tenant's integrations, and pager events go to this platform's own /v2/enqueue: every page would open another incident (a loop)";

export type ChannelTestResult = Extract<ChannelCommand, { kind: 'RecordChannelTest' }>['result'];

/** The secret set by a command's events, if any: shown once, in the answer to that command. */
const signingSecretIn = (events: { type: string; data: Record<string, unknown> }[]) =>
  events.find((event) => event.type === 'ChannelSigningSecretSet')?.data.signingSecret as string | undefined;

/**
 * Only webhook channels sign (the decider keeps an existing secret); other types need no random
 * bytes. No type (a PUT that leaves it out): the channel keeps its own, which may be webhook.
 */
const newSecretIfWebhook = (type: string | undefined, newSigningSecret: () => string) =>
  type === 'webhook' || type === undefined ? { signingSecret: newSigningSecret() } : {};

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

  /** Refuses (400, changing nothing) a pager key that pages back into the tenant's own integration. */
  const refuseLoop = async (ctx: CommandContext, config: Record<string, unknown> | undefined) => {
    const key = config?.integration_key;
    if (typeof key !== 'string' || !deps.pagerLoopsBack) return;
    if (await deps.pagerLoopsBack(ctx.state.principal.tenantId, key))
      throw badRequest(`config.integration_key ${LOOP_MESSAGE}`, [
        { path: '/config/integration_key', message: LOOP_MESSAGE },
      ]);
  };

  router.post('/notification-channels', requires('channels:write'), async (ctx) => {
    const body = parseChannelBody(ctx.request.body);
    if (body.type === 'pager') await refuseLoop(ctx, body.config);
    const channelId = randomUUID();
    const outcome = await run(ctx, {
      kind: 'CreateChannel',
      channelId,
      ...body,
      ...newSecretIfWebhook(body.type, deps.newSigningSecret),
    });
    commandHeaders(ctx, outcome);
    ctx.set('Location', `${ctx.path.replace(/\/$/, '')}/${channelId}`);
    const secret = signingSecretIn(outcome.events);
    // The new channel is all in its ChannelCreated event, so the answer is rendered from it rather
    // than read back from the read model (which the command has waited for, so the next GET shows
    // the same): one SQLite read less on the event loop per create.
    const created = outcome.events.find((event): event is ChannelCreated => event.type === 'ChannelCreated')!.data;
    const at = outcome.decidedAt.toISOString();
    const channel = {
      id: channelId,
      name: created.name,
      type: created.type,
      config: created.config,
      createdAt: at,
      updatedAt: at,
    };
    // The secret added to the fresh view, not spread into a copy of it (a spread followed by a new
    // key costs a hidden class per object on Node 20, bench/README.md).
    const answer = deps.presentChannel(channel);
    if (secret) answer.signing_secret = secret;
    ok(ctx, answer, 201);
  });

  router.put('/notification-channels/:id', requires('channels:write'), async (ctx) => {
    const id = storedResourceId(ctx.params.id, 'notification channel');
    // Any subset of name, type, config (SPEC.md: "Updates the configuration"); the decider checks the result whole.
    const changes = channelChangeBodySchema.parse(ctx.request.body);
    await refuseLoop(ctx, changes.config as Record<string, unknown> | undefined);
    const outcome = await run(
      ctx,
      { kind: 'UpdateChannel', channelId: id, ...changes, ...newSecretIfWebhook(changes.type, deps.newSigningSecret) },
      ifMatchRevision(ctx),
    );
    commandHeaders(ctx, outcome);
    const secret = signingSecretIn(outcome.events);
    ok(ctx, {
      ...(await deps.viewChannel(ctx.state.principal.tenantId, id)),
      ...(secret ? { signing_secret: secret } : {}),
    });
  });

  /** A new signing secret for a webhook channel; the old one stops working at once. Shown once, here. */
  router.post('/notification-channels/:id/rotate-secret', requires('channels:write'), async (ctx) => {
    const id = storedResourceId(ctx.params.id, 'notification channel');
    const signingSecret = deps.newSigningSecret();
    commandHeaders(
      ctx,
      await run(ctx, { kind: 'RotateSigningSecret', channelId: id, signingSecret }, ifMatchRevision(ctx)),
    );
    const rotated: RotatedSecret = { id, signing_secret: signingSecret };
    ok(ctx, rotated);
  });

  /**
   * Sends a sample alert through the channel's real adapter and answers what came of it; the
   * attempt is recorded on the channel's stream (ChannelTestSent). A downstream failure is still a
   * 200: the test ran, and its answer says what the destination did: top-level `success` is the
   * downstream outcome (SPEC.md "returns success or the downstream error details"), no envelope.
   */
  router.post('/notification-channels/:id/test', requires('channels:write'), async (ctx) => {
    const id = storedResourceId(ctx.params.id, 'notification channel');
    const result = await deps.sendTest(ctx.state.principal.tenantId, id);
    if (!result) throw notFound('notification channel');
    commandHeaders(ctx, await run(ctx, { kind: 'RecordChannelTest', channelId: id, result }));
    const tested: ChannelTestAnswer = {
      success: result.ok,
      target: result.target,
      status_code: result.statusCode,
      latency_ms: result.latencyMs,
      response_excerpt: result.responseExcerpt,
      error: result.error,
    };
    okBare(ctx, tested);
  });

  router.delete('/notification-channels/:id', requires('channels:write'), async (ctx) => {
    const id = storedResourceId(ctx.params.id, 'notification channel');
    const expected = ifMatchRevision(ctx);
    const references = await deps.channelReferences(ctx.state.principal.tenantId, id);
    if (references.length > 0) {
      throw rejectConflict(
        `the channel is referenced by escalation policies: ${references.map((policy) => policy.name).join(', ')}`,
        { referenced_by: references },
      );
    }
    const outcome = await run(ctx, { kind: 'DeleteChannel', channelId: id }, expected);
    commandHeaders(ctx, outcome);
    const deleted: Deleted = { id, deleted: true };
    ok(ctx, deleted);
  });
  return router;
}
