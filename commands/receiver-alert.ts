/**
 * What the receivers keyed in their address (Alertmanager, SNS, generic JSON) share when they turn
 * a payload into the one normalized alert: the severity word through the integration's map, the
 * title cut to the length an incident title takes, a dedup key too long for the incident's subject
 * replaced by its SHA-256 (the same long key always gives the same incident), and the sender's
 * fields with every slot a receiver does not fill left empty.
 */
import { createHash } from 'node:crypto';
import { INBOUND_LIMITS } from '../src/contract/inbound-limits.js';
import type { InboundAction, NormalizedAlert, SenderFields } from '../src/events/inbound-alert.js';
import type { RoutedIntegration } from './routing-key-gate.js';

export type Read<T> = { ok: true; value: T } | { ok: false; errors: { path: string; message: string }[] };

export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export const emptySender = (): SenderFields => ({
  source: null,
  component: null,
  group: null,
  class: null,
  timestamp: null,
  severity: null,
  custom_details: null,
  links: [],
  images: [],
  client: null,
  client_url: null,
  labels: null,
});

export const boundedDedupKey = (key: string) =>
  key.length <= INBOUND_LIMITS.maxDedupKeyChars ? key : createHash('sha256').update(key).digest('hex');

const boundedTitle = (title: string) =>
  title.length <= INBOUND_LIMITS.maxSummaryChars ? title : `${title.slice(0, INBOUND_LIMITS.maxSummaryChars - 1)}…`;

export function receiverAlert(
  integration: Pick<RoutedIntegration, 'id' | 'severityMap' | 'defaultSeverity'>,
  alert: { dedupKey: string; action: InboundAction; title: string | null; sender: Partial<SenderFields> },
): NormalizedAlert {
  const sender = { ...emptySender(), ...alert.sender };
  const word = sender.severity;
  return {
    integrationId: integration.id,
    dedupKey: boundedDedupKey(alert.dedupKey),
    action: alert.action,
    title: alert.title === null || alert.title.trim() === '' ? null : boundedTitle(alert.title),
    // Own entries only: a word such as `constructor` is not in any map.
    severity:
      word !== null && Object.hasOwn(integration.severityMap, word)
        ? integration.severityMap[word]!
        : integration.defaultSeverity,
    sender,
  };
}
