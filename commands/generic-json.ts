/**
 * Any JSON read into a normalized alert by the integration's `config` (JSON Pointers, RFC 6901):
 * `dedup_key` (a string or number, required), `title` (a string, required to trigger), `severity`
 * (optional, the word mapped through `severity_map`), `action` (optional; absent, every event
 * triggers) and `action_map` (the caller's action words onto trigger, acknowledge, resolve).
 * The caller's whole document is kept on the incident as its `custom_details`. Pure: the routes
 * authenticate and hand the alert to the intake. Each problem is named by the pointer that found it.
 */
import type { GenericConfig } from '../src/contract/bodies/integration-config.js';
import type { InboundAction, NormalizedAlert } from '../src/events/inbound-alert.js';
import { resolvePointer } from './json-pointer.js';
import { receiverAlert, type Read } from './receiver-alert.js';
import type { RoutedIntegration } from './routing-key-gate.js';

const scalar = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : null;

export function readGenericJson(document: unknown, integration: RoutedIntegration): Read<NormalizedAlert> {
  const config = integration.config as GenericConfig;
  const errors: { path: string; message: string }[] = [];

  const dedupKey = scalar(resolvePointer(document, config.dedup_key));
  if (dedupKey === null || dedupKey.trim() === '')
    errors.push({ path: config.dedup_key, message: 'the dedup key: must be a non-empty string or a number' });

  let action: InboundAction = 'trigger';
  if (config.action !== undefined) {
    const word = scalar(resolvePointer(document, config.action));
    const actionMap = config.action_map ?? {};
    if (word === null || !Object.hasOwn(actionMap, word))
      errors.push({
        path: config.action,
        message: `the action: must be one of ${Object.keys(actionMap)
          .map((known) => JSON.stringify(known))
          .join(', ')}`,
      });
    else action = actionMap[word]!;
  }

  const rawTitle = resolvePointer(document, config.title);
  const title = typeof rawTitle === 'string' && rawTitle.trim() !== '' ? rawTitle : null;
  if (rawTitle !== undefined && rawTitle !== null && typeof rawTitle !== 'string')
    errors.push({ path: config.title, message: 'the title: must be a string' });
  else if (title === null && action === 'trigger')
    errors.push({ path: config.title, message: 'the title: required to trigger' });

  let severity: string | null = null;
  if (config.severity !== undefined) {
    const raw = resolvePointer(document, config.severity);
    severity = scalar(raw);
    if (raw !== undefined && raw !== null && severity === null)
      errors.push({ path: config.severity, message: 'the severity: must be a string or a number' });
  }

  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: receiverAlert(integration, {
      dedupKey: dedupKey!,
      action,
      title,
      sender: { severity, custom_details: document },
    }),
  };
}
