/**
 * Composition of action links (src/action-links): the tenants' signing keys in the event log, the
 * issuer the escalation manager mints each page's links with, the public pages and the rotate route.
 */
import { actionLinkApiRoutes, actionLinkPublicRoutes } from '../action-links/routes.js';
import { actionLinkIssuer, type ActionLinkIssuer } from '../action-links/issue.js';
import { eventLogSigningKeys } from '../action-links/signing-keys.js';
import type { CommandDeps } from '../commanding/command-handler.js';
import type { Config } from '../config.js';
import type { IncidentState } from '../events/incident.js';
import type { PlatformArea } from './area.js';

export function composeActionLinks(options: { config: Config; commandDeps: CommandDeps }) {
  const { config, commandDeps } = options;
  const keys = eventLogSigningKeys(commandDeps.eventStore, commandDeps.now);
  const issuer: ActionLinkIssuer = actionLinkIssuer({ keys, publicUrl: config.notify.publicUrl, ttlMs: config.actionLinks.ttlMs, now: commandDeps.now });
  return {
    issuer,
    /** The public pages; `onResolved` counts resolutions as the API's resolve does. */
    publicRoutes: (onResolved: (outcome: { events: unknown[]; state: IncidentState }) => void) =>
      actionLinkPublicRoutes({ ...commandDeps, keys, perAddressPerMinute: config.actionLinks.requestsPerAddressPerMinute, onResolved }),
    area: {
      routes: [{ alias: false, routes: () => actionLinkApiRoutes({ keys, waitForProjections: commandDeps.waitForProjections }) }],
      projections: [],
      processes: [],
    } satisfies PlatformArea,
  };
}
