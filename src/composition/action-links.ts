/**
 * Composition of action links (src/action-links): the tenants' signing keys in the event log, the
 * issuer the escalation manager mints each page's links with, the public pages and the rotate route.
 */
import { CHANNELS } from '../../projections/channels.js';
import { actionLinkApiRoutes, actionLinkPublicRoutes } from '../action-links/routes.js';
import { actionLinkIssuer, type ActionLinkIssuer } from '../action-links/issue.js';
import { recipientStanding } from '../action-links/recipient-standing.js';
import { eventLogSigningKeys } from '../action-links/signing-keys.js';
import type { IamPermissionResolver } from '../auth/iam-permission-resolver.js';
import type { CommandDeps } from '../commanding/command-handler.js';
import type { Config } from '../config.js';
import type { IncidentState } from '../events/incident.js';
import { findTenantDoc } from '../http/read-model-routes.js';
import type { ReadModelReader } from '../readstore/port.js';
import type { PlatformArea } from './area.js';

/**
 * `permissions`: the API's resolver, so a link's recipient is judged as the API judges the person;
 * `reader`: where a channel recipient is looked for.
 */
export function composeActionLinks(options: {
  config: Config;
  commandDeps: CommandDeps;
  permissions: Pick<IamPermissionResolver, 'resolve'>;
  reader: ReadModelReader;
}) {
  const { config, commandDeps, permissions, reader } = options;
  const keys = eventLogSigningKeys(commandDeps.eventStore, commandDeps.now);
  const standing = recipientStanding({
    resolve: (principal) => permissions.resolve(principal),
    channelExists: async (tenantId, channelId) => (await findTenantDoc(reader, CHANNELS, tenantId, channelId)) !== null,
  });
  const issuer: ActionLinkIssuer = actionLinkIssuer({
    keys,
    recipientStanding: standing,
    publicUrl: config.notify.publicUrl,
    ttlMs: config.actionLinks.ttlMs,
    now: commandDeps.now,
  });
  return {
    issuer,
    /** The public pages; `onResolved` counts resolutions as the API's resolve does. */
    publicRoutes: (onResolved: (outcome: { events: unknown[]; state: IncidentState }) => void) =>
      actionLinkPublicRoutes({
        ...commandDeps,
        keys,
        recipientStanding: standing,
        publicOrigin: new URL(config.notify.publicUrl).origin,
        perAddressPerMinute: config.actionLinks.requestsPerAddressPerMinute,
        onResolved,
      }),
    area: {
      routes: [
        {
          alias: false,
          routes: () => actionLinkApiRoutes({ keys, waitForProjections: commandDeps.waitForProjections }),
        },
      ],
      processes: [],
    } satisfies PlatformArea,
  };
}
