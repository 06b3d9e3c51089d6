/**
 * last_login: the first authenticated request of a user with a newly issued token records a login
 * (UserLoggedIn; the token is known by its iat). Later requests with the same token record
 * nothing and read nothing: this process remembers the tokens it has recorded (and the ones in
 * flight, so concurrent first requests share one command), and the decider ignores a token that is
 * not newer than the last recorded one (so several instances add one event between them).
 */
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { CommandEnvelope } from '../commanding/command-handler.js';
import { envelopeFrom } from '../http/command-context.js';
import type { AppState } from '../http/state.js';
import type { IamPermissionResolver } from './iam-permission-resolver.js';

const REMEMBERED_TOKENS = 10_000;

export interface LoginRecorderDeps {
  resolver: Pick<IamPermissionResolver, 'resolve'>;
  /** Appends the login to the user's stream (commands/users.ts RecordLogin). */
  recordLogin: (envelope: CommandEnvelope, userId: string, tokenIssuedAt: number) => Promise<void>;
}

export function recordLogins(deps: LoginRecorderDeps): Middleware<AppState> {
  const recorded = new Map<string, Promise<void>>();
  const remember = (key: string, recording: Promise<void>) => {
    recorded.set(key, recording);
    if (recorded.size > REMEMBERED_TOKENS) recorded.delete(recorded.keys().next().value!);
  };
  return async (ctx, next) => {
    const { principal } = ctx.state;
    const issuedAt = principal.issuedAt;
    const key = `${principal.tenantId}/${principal.userId}/${issuedAt}`;
    if (issuedAt !== undefined && !recorded.has(key)) {
      const envelope = envelopeFrom(ctx);
      const recording = (async () => {
        // Principals that are not active users (service clients, removed users) are remembered too: nothing to record.
        if ((await deps.resolver.resolve(principal)).standing === 'active')
          await deps.recordLogin(envelope, principal.userId, issuedAt);
      })();
      remember(key, recording);
      try {
        await recording;
      } catch (error) {
        // The login is bookkeeping: the request goes on, and the next request with this token tries again.
        recorded.delete(key);
        (ctx.state as { log?: Logger }).log?.warn({ err: error }, 'could not record the login');
      }
    }
    await next();
  };
}
