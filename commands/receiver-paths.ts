/**
 * Where the receivers whose routing key is in the address listen (docs/integrations.md):
 * `POST /integrations/<kind>/<routing key>` for Alertmanager's webhook, SNS and generic JSON.
 * PagerDuty's Events API v2 (`/v2/enqueue`) carries its key in the body instead.
 */
import type { IntegrationKind } from '../src/contract/bodies/integrations.js';

export const RECEIVER_PATH_PREFIX = '/integrations/';
export const PATH_KEYED_KINDS = ['alertmanager', 'sns', 'generic'] as const satisfies readonly IntegrationKind[];
export type PathKeyedKind = (typeof PATH_KEYED_KINDS)[number];

export const receiverPath = (kind: IntegrationKind, routingKey: string) =>
  `${RECEIVER_PATH_PREFIX}${kind}/${routingKey}`;
