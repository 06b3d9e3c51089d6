/**
 * last_login: the first authenticated request of a user with a newly issued token records
 * UserLoggedIn (the token is known by its iat). Later requests with the same token record nothing:
 * this process remembers the tokens it has recorded, and the decider ignores a token that is not
 * newer than the last recorded one (so several instances, or concurrent first requests, add one event).
 */
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { handleCommand, type CommandDeps } from '../src/commanding/command-handler.js';
import type { IamPermissionResolver } from '../src/auth/iam-permission-resolver.js';
import { envelopeFrom } from '../src/http/command-context.js';
import type { AppState } from '../src/http/state.js';
import { userDecider, userStream } from './users.js';

const REMEMBERED_TOKENS = 10_000;

export function recordLogins(deps: CommandDeps & { resolver: Pick<IamPermissionResolver, 'resolve'> }): Middleware<AppState> {
  const recorded = new Set<string>();
  return async (ctx, next) => {
    const { principal } = ctx.state;
    const key = `${principal.tenantId}/${principal.userId}/${principal.issuedAt}`;
    if (principal.issuedAt !== undefined && !recorded.has(key) && (await deps.resolver.resolve(principal)).standing === 'active') {
      try {
        await handleCommand(deps, userDecider, {
          stream: userStream(principal.userId),
          resourceName: 'user',
          command: { kind: 'RecordLogin', userId: principal.userId, tokenIssuedAt: principal.issuedAt },
          envelope: envelopeFrom(ctx),
          retriesOnConflict: 3,
        });
        recorded.add(key);
        if (recorded.size > REMEMBERED_TOKENS) recorded.delete(recorded.values().next().value!);
      } catch (error) {
        // The login is bookkeeping: the request goes on, and the next request with this token tries again.
        (ctx.state as { log?: Logger }).log?.warn({ err: error }, 'could not record the login');
      }
    }
    await next();
  };
}
