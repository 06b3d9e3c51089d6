/**
 * A server-sent event stream lives no longer than the rights it was opened with: it ends within
 * STREAM_RIGHTS_CHECK_MS of the expiry of the token it was opened with, and of an IAM change that takes
 * its permission away (a deny override, a role change, deactivation). The client gets a final
 * `event: error` with `{ reason, detail }` and the stream closes; reconnecting needs a valid token
 * (or ticket) and the permission again.
 *
 * The check asks the permission resolver once a second; its cache is keyed by the tenant's IAM
 * change stamp, so while nothing changed in the tenant a check is a cache hit, and after a change
 * it recomputes from the read models.
 */
import type { Context } from 'koa';
import type { Permission } from '../access/permissions.js';
import type { SseChannel } from './sse.js';

export const STREAM_RIGHTS_CHECK_MS = 1000;

export type StreamEndReason = 'token_expired' | 'access_revoked';

export function endStreamWhenRightsEnd(
  ctx: Context,
  sse: SseChannel,
  permission: Permission,
  options: { checkEveryMs?: number } = {},
): void {
  const { principal } = ctx.state as { principal: { expiresAt?: number } };
  const stillAllowed = (ctx.state as { canStill: (permission: Permission) => Promise<boolean> }).canStill;
  const end = (reason: StreamEndReason, detail: string) => {
    if (sse.closed) return;
    sse.send({ event: 'error', data: { reason, detail } });
    sse.close();
  };
  // Expiry is checked with the rights, not by a timer set for it: Node fires a timeout longer than
  // 2^31 - 1 ms (24.8 days; a 30-day token) at once. Real time, as the token's exp was checked
  // against (jsonwebtoken reads Date.now()).
  const expired = () => principal.expiresAt !== undefined && Date.now() >= principal.expiresAt * 1000;
  let checking = false;
  const check = setInterval(() => {
    if (sse.closed) return;
    if (expired())
      return end('token_expired', 'the access token this stream was opened with has expired; reconnect with a new one');
    if (checking) return;
    checking = true;
    stillAllowed(permission)
      .then((allowed) => {
        if (!allowed)
          end(
            'access_revoked',
            `the caller no longer holds ${permission} (the permission was taken away, or the user was deactivated)`,
          );
      })
      .catch(() => undefined) // the read models unavailable for a moment: check again next time
      .finally(() => (checking = false));
  }, options.checkEveryMs ?? STREAM_RIGHTS_CHECK_MS);
  check.unref();
  sse.onClose(() => clearInterval(check));
}
