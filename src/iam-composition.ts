/**
 * Identity and access, composed from its parts: the IAM projections, the permission resolver
 * (with its cache), the middlewares that run after authentication, and the API modules. Called by
 * the composition root (platform.ts), which chooses the adapters (read store, identity provider).
 */
import type { Logger } from 'pino';
import { groupCommandRoutes } from '../commands/groups.js';
import { roleCommandRoutes } from '../commands/roles.js';
import { tenantDefaultsCommandRoutes } from '../commands/tenant-defaults.js';
import type { GrantSourceLookup } from '../commands/user-input.js';
import { recordLogins } from '../commands/user-logins.js';
import { userOverrideRoutes } from '../commands/user-overrides.js';
import { userCommandRoutes } from '../commands/user-routes.js';
import { groupsProjection } from '../projections/groups.js';
import { rolesProjection } from '../projections/roles.js';
import { tenantDefaultsProjection } from '../projections/tenant-defaults.js';
import { USERS, usersProjection } from '../projections/users.js';
import { findGroup, findGroupsAmong, groupGrants, groupQueryRoutes, groupView } from '../queries/groups.js';
import { readModelPermissionSources } from '../queries/permission-sources.js';
import { findRole, roleGrants, roleQueryRoutes, roleView } from '../queries/roles.js';
import { tenantDefaults, tenantDefaultsQueryRoutes, tenantDefaultsView } from '../queries/tenant-defaults.js';
import { userPermissionQueryRoutes } from '../queries/user-permissions.js';
import { findUser, userQueryRoutes, userView } from '../queries/users.js';
import type { IamChangeStamps } from './auth/iam-change-stamps.js';
import { iamPermissionResolver } from './auth/iam-permission-resolver.js';
import { refuseInactiveUsers } from './auth/refuse-inactive-users.js';
import type { CommandDeps } from './commanding/command-handler.js';
import type { IdentityProvider } from './gateways/identity/port.js';
import type { ApiModule } from './http/app.js';
import type { Projection } from './projection/projection.js';
import { userInvitations } from './process/user-invitations.js';
import type { ReadModelReader } from './readstore/port.js';

export const iamProjections: Projection[] = [usersProjection, groupsProjection, rolesProjection, tenantDefaultsProjection];

/** Their committed batches move the permission cache's stamps (src/auth/iam-change-stamps.ts). */
export const IAM_PROJECTION_NAMES: ReadonlySet<string> = new Set(iamProjections.map((projection) => projection.name));

export interface IamDeps extends CommandDeps {
  reader: ReadModelReader;
  stamps: IamChangeStamps;
  identity: IdentityProvider;
  logger: Logger;
}

export function createIam(deps: IamDeps) {
  const { reader, logger } = deps;
  const commandDeps: CommandDeps = { eventStore: deps.eventStore, waitForProjections: deps.waitForProjections, now: deps.now };
  const resolver = iamPermissionResolver({ lookup: readModelPermissionSources(reader), stamps: deps.stamps });
  const invite = userInvitations({ ...commandDeps, identity: deps.identity, logger });
  const assignments: GrantSourceLookup = {
    findRole: async (tenantId, id) => {
      const role = await findRole(reader, tenantId, id);
      return role ? roleGrants(role) : null;
    },
    findGroups: async (tenantId, ids) => (await findGroupsAmong(reader, tenantId, ids)).map(groupGrants),
  };
  const viewGroup = async (tenantId: string, id: string) => {
    const doc = await findGroup(reader, tenantId, id);
    return doc ? groupView(doc) : null;
  };

  const modules: ApiModule[] = [
    {
      alias: true,
      routes: () =>
        userCommandRoutes({
          ...commandDeps, assignments, invite, logger,
          viewUser: async (tenantId, id) => {
            const doc = await findUser(reader, tenantId, id);
            return doc ? { data: userView(doc), revision: doc.revision } : null;
          },
        }),
    },
    { alias: true, routes: () => userQueryRoutes({ reader }) },
    { alias: false, routes: () => userOverrideRoutes(commandDeps) },
    { alias: false, routes: () => userPermissionQueryRoutes({ reader }) },
    {
      alias: false,
      routes: () =>
        roleCommandRoutes({
          ...commandDeps,
          viewRole: async (tenantId, id) => {
            const role = await findRole(reader, tenantId, id);
            return role ? roleView(role) : null;
          },
          roleHolders: (tenantId, id) => reader.count(USERS, { tenantId, roleId: id, removed: false }),
        }),
    },
    { alias: false, routes: () => roleQueryRoutes({ reader }) },
    {
      alias: false,
      routes: () =>
        groupCommandRoutes({
          ...commandDeps, viewGroup,
          groupMembers: (tenantId, id) => reader.count(USERS, { tenantId, groupIds: { $contains: id }, removed: false }),
        }),
    },
    { alias: false, routes: () => groupQueryRoutes({ reader }) },
    {
      alias: false,
      routes: () => tenantDefaultsCommandRoutes({ ...commandDeps, viewDefaults: async (tenantId) => tenantDefaultsView(await tenantDefaults(reader, tenantId)) }),
    },
    { alias: false, routes: () => tenantDefaultsQueryRoutes({ reader }) },
  ];

  return {
    permissions: resolver,
    /** Deactivated users are refused first; only then is a login recorded. */
    afterAuthentication: [refuseInactiveUsers(resolver), recordLogins({ ...commandDeps, resolver })],
    modules,
  };
}
