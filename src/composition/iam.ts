/**
 * Identity and access, composed from its parts: the IAM projections, the permission resolver
 * (with its cache), the middlewares that run after authentication, and the API modules, and the
 * identity provider invitations go through (the IdP's management API when configured, else
 * invitation mails written to DATA_DIR/outbox). Called by the composition root (platform.ts).
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import { groupCommandRoutes } from '../../commands/group-routes.js';
import { roleCommandRoutes } from '../../commands/role-routes.js';
import { tenantDefaultsCommandRoutes } from '../../commands/tenant-defaults-routes.js';
import { userInvitations } from '../../commands/user-invitations.js';
import { userOverrideRoutes } from '../../commands/user-override-routes.js';
import { userCommandRoutes } from '../../commands/user-routes.js';
import { userDecider } from '../../commands/users.js';
import { USERS } from '../../projections/users.js';
import { findGroup, groupQueryRoutes, groupView } from '../../queries/groups.js';
import { roleQueryRoutes, roleView } from '../../queries/roles.js';
import { platformAlertsView, tenantDefaultsQueryRoutes, tenantDefaultsView } from '../../queries/tenant-defaults.js';
import { findEscalationPolicy } from '../../queries/escalation-policies.js';
import { findGroupsAmong, findRole, groupGrants, roleGrants, tenantDefaults } from '../auth/iam-lookups.js';
import { userPermissionQueryRoutes } from '../../queries/user-permissions.js';
import { findUser, userQueryRoutes, userView } from '../../queries/users.js';
import { meQueryRoutes } from '../../queries/me.js';
import { userNameQueryRoutes } from '../../queries/user-names.js';
import type { GrantSourceLookup } from '../auth/assignment-guard.js';
import type { IamChangeStamps } from '../auth/iam-change-stamps.js';
import { iamPermissionResolver } from '../auth/iam-permission-resolver.js';
import { readModelPermissionSources } from '../auth/read-model-permission-sources.js';
import { recordLogins } from '../auth/record-logins.js';
import { refuseInactiveUsers } from '../auth/refuse-inactive-users.js';
import { handleCommand, type CommandDeps } from '../commanding/command-handler.js';
import { userStream } from '../events/user.js';
import type { Config } from '../config.js';
import { managementApiIdentityProvider } from '../gateways/identity/management-api.js';
import { outboxInvitations, outboxMailer } from '../gateways/identity/outbox-mailer.js';
import type { IdentityProvider } from '../gateways/identity/port.js';
import type { ApiModule } from '../http/app.js';
import type { ReadModelReader } from '../readstore/port.js';
import type { PlatformArea } from './area.js';

/** Where invitations go: the identity provider's management API when configured, the outbox otherwise. */
function identityProviderFrom(config: Pick<Config, 'dataDir' | 'baseUrl' | 'identityProvider'>): IdentityProvider {
  const mailer = outboxMailer({
    directory: join(config.dataDir, 'outbox'),
    from: `warehouse-watch <no-reply@${new URL(config.baseUrl).hostname}>`,
  });
  return config.identityProvider
    ? managementApiIdentityProvider({ ...config.identityProvider, mailer, resultUrl: config.baseUrl })
    : outboxInvitations({ mailer, signInUrl: config.baseUrl });
}

export interface IamDeps extends CommandDeps {
  config: Pick<Config, 'dataDir' | 'baseUrl' | 'identityProvider'>;
  reader: ReadModelReader;
  stamps: IamChangeStamps;
  logger: Logger;
}

export function composeIam(deps: IamDeps): PlatformArea & {
  permissions: ReturnType<typeof iamPermissionResolver>;
  afterAuthentication: ReturnType<typeof recordLogins>[];
} {
  const { reader, logger } = deps;
  const commandDeps: CommandDeps = {
    eventStore: deps.eventStore,
    waitForProjections: deps.waitForProjections,
    now: deps.now,
    conflictBudgetMs: deps.conflictBudgetMs,
  };
  const resolver = iamPermissionResolver({ lookup: readModelPermissionSources(reader, logger), stamps: deps.stamps });
  const invite = userInvitations({ ...commandDeps, identity: identityProviderFrom(deps.config), logger });
  const assignments: GrantSourceLookup = {
    findRole: async (tenantId, id) => {
      const role = await findRole(reader, tenantId, id);
      return role ? roleGrants(role) : null;
    },
    findGroups: async (tenantId, ids) => (await findGroupsAmong(reader, tenantId, ids)).map(groupGrants),
    findTenantDefaults: async (tenantId) => (await tenantDefaults(reader, tenantId))?.permissions ?? {},
  };
  const viewGroup = async (tenantId: string, id: string) => {
    const doc = await findGroup(reader, tenantId, id);
    return doc ? groupView(doc) : null;
  };

  const recordLogin = async (envelope: Parameters<typeof invite>[0], userId: string, tokenIssuedAt: number) => {
    await handleCommand(commandDeps, userDecider, {
      stream: userStream(userId),
      resourceName: 'user',
      command: { kind: 'RecordLogin', userId, tokenIssuedAt },
      envelope,
    });
  };

  const routes: ApiModule[] = [
    {
      alias: true,
      routes: () =>
        userCommandRoutes({
          ...commandDeps,
          assignments,
          invite,
          logger,
          viewUser: async (tenantId, id) => {
            const doc = await findUser(reader, tenantId, id);
            return doc ? { data: userView(doc), revision: doc.revision } : null;
          },
        }),
    },
    { alias: true, routes: () => userQueryRoutes({ reader }) },
    { alias: false, routes: () => userOverrideRoutes(commandDeps) },
    { alias: false, routes: () => userPermissionQueryRoutes({ reader }) },
    { alias: false, routes: () => meQueryRoutes({ reader, resolve: resolver.resolve }) },
    { alias: false, routes: () => userNameQueryRoutes({ reader }) },
    {
      alias: false,
      routes: () =>
        roleCommandRoutes({
          ...commandDeps,
          logger,
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
          ...commandDeps,
          viewGroup,
          logger,
          groupMembers: (tenantId, id) =>
            reader.count(USERS, { tenantId, groupIds: { $contains: id }, removed: false }),
        }),
    },
    { alias: false, routes: () => groupQueryRoutes({ reader }) },
    {
      alias: false,
      routes: () =>
        tenantDefaultsCommandRoutes({
          ...commandDeps,
          viewDefaults: async (tenantId) => tenantDefaultsView(await tenantDefaults(reader, tenantId)),
          viewPlatformAlerts: async (tenantId) => platformAlertsView(await tenantDefaults(reader, tenantId)),
          policyExists: async (tenantId, id) => (await findEscalationPolicy(reader, tenantId, id)) !== null,
        }),
    },
    { alias: false, routes: () => tenantDefaultsQueryRoutes({ reader }) },
  ];

  return {
    routes,
    processes: [],
    permissions: resolver,
    /** Deactivated users are refused first; only then is a login recorded. */
    afterAuthentication: [refuseInactiveUsers(resolver), recordLogins({ resolver, recordLogin })],
  };
}
