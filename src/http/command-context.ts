import type { Context } from 'koa';
import type { CommandEnvelope, CommandOutcome } from '../commanding/command-handler.js';
import { HttpProblem } from './problem.js';
import { setReadPosition } from './read-position.js';
import type { AppState } from './state.js';

/** A Koa context after authentication: what every command route works with. */
export type CommandContext = Context & { state: AppState };

/** The envelope of a command issued over HTTP: tenant and actor from the token, ids from the request. */
export function envelopeFrom(ctx: CommandContext): CommandEnvelope {
  return {
    tenantId: ctx.state.principal.tenantId,
    actor: ctx.state.principal.userId,
    correlationId: ctx.state.requestId,
    causationId: ctx.state.requestId,
  };
}

/** `If-Match: "3"` → 3n; absent → undefined (the change applies unconditionally). */
export function ifMatchRevision(ctx: Context): bigint | undefined {
  const header = ctx.get('If-Match');
  if (!header) return undefined;
  const match = /^(?:W\/)?"?(\d+)"?$/.exec(header.trim());
  if (!match) throw new HttpProblem(400, 'Bad Request', 'If-Match must be an ETag returned by this API, e.g. "3"');
  return BigInt(match[1]!);
}

export const etagOf = (revision: bigint | number | string) => `"${String(revision)}"`;

/**
 * Headers every command response carries: the new ETag, X-Read-Position when events were appended
 * (a read on any instance can wait for it: src/http/read-position.ts), and X-Read-Model-Pending
 * when the projections had not caught up within the read-your-writes bound.
 */
export function commandHeaders(
  ctx: Context,
  outcome: Pick<CommandOutcome<unknown, unknown>, 'revision' | 'projected' | 'position'>,
): void {
  if (outcome.revision !== null) ctx.set('ETag', etagOf(outcome.revision));
  setReadPosition(ctx, outcome.position);
  if (!outcome.projected) ctx.set('X-Read-Model-Pending', 'true');
}
