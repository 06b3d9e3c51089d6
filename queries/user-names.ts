/**
 * GET /api/v1/user-names: the display names of the tenant's users, for any valid token of the
 * tenant (no permission guards it, as /me). Pages that show who acknowledged, resolved or wrote a
 * note need a name for a user id, and an on-call engineer whose role lacks iam:read (GET /users)
 * must still read "Ada Lovelace", not a UUID. Names only: no email, phone, role or groups.
 *
 * Removed users are included (flagged), since an incident's history still names them. The tenant
 * comes from the token and filters inside the query itself.
 */
import type { UserName } from '../src/contract/iam.js';
import Router from '@koa/router';
import { USERS, type UserDoc } from '../projections/users.js';
import { ok } from '../src/http/envelope.js';
import { queryParameters } from '../src/http/query-parameters.js';
import { anyCaller } from '../src/http/guard.js';
import type { AppState } from '../src/http/state.js';
import type { ReadModelReader } from '../src/readstore/port.js';

export const USER_NAMES_PATH = '/user-names';

export const userNameView = (doc: UserDoc): UserName => ({ id: doc.id, name: doc.name, removed: doc.removed });

export function userNameQueryRoutes(deps: { reader: ReadModelReader }) {
  const router = new Router<AppState>();
  router.get(USER_NAMES_PATH, anyCaller(), queryParameters([]), async (ctx) => {
    const docs = await deps.reader.find<UserDoc>(
      USERS,
      { tenantId: ctx.state.principal.tenantId },
      { sort: [['createdAt', 'asc']] },
    );
    ok(ctx, docs.map(userNameView));
  });
  return router;
}
