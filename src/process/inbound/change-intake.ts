/**
 * What an accepted change event does (`POST /v2/change/enqueue`): one IntegrationChangeReceived on
 * the integration's inbox stream, appended without reading, on the tenant's record (the
 * `change_events` read model) and paging nobody. Answered once the read models show it.
 */
import { randomUUID } from 'node:crypto';
import type { CommandDeps } from '../../commanding/command-handler.js';
import { integrationActor, integrationInboxStream } from '../../events/inbound-alert.js';

export interface ReceivedChange {
  summary: string;
  source: string | null;
  timestamp: string | null;
  customDetails: unknown;
  links: { href: string; text: string | null }[];
}

export function changeIntake(deps: CommandDeps) {
  return async (integration: { id: string; tenantId: string }, change: ReceivedChange, correlationId: string) => {
    const at = deps.now().toISOString();
    const appended = await deps.eventStore.append(
      integrationInboxStream(integration.id),
      [
        {
          type: 'IntegrationChangeReceived',
          data: {
            changeId: randomUUID(),
            integrationId: integration.id,
            summary: change.summary,
            source: change.source,
            timestamp: change.timestamp,
            custom_details: change.customDetails ?? null,
            links: change.links,
            at,
          },
          metadata: {
            tenantId: integration.tenantId,
            actor: integrationActor(integration.id),
            correlationId,
            causationId: correlationId,
            occurredAt: at,
          },
        },
      ],
      { expectedRevision: 'any' },
    );
    await deps.waitForProjections(appended.position);
  };
}
