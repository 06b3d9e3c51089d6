/**
 * Which parts of a channel's config are secrets, and how they are masked. Secrets (pager
 * integration_key, webhook header values) are write-only: answers show them masked, and a PUT
 * that sends a masked value back keeps the stored secret.
 */
import type { ChannelType } from './vocabulary.js';

const MASK_PREFIX = '****';
export const maskSecret = (secret: string) => `${MASK_PREFIX}${secret.length > 8 ? secret.slice(-4) : ''}`;

/** The config as clients see it. */
export function maskChannelConfig(type: ChannelType, config: Record<string, unknown>): Record<string, unknown> {
  if (type === 'pager') return { ...config, integration_key: maskSecret(String(config.integration_key)) };
  if (type === 'webhook') {
    const headers = (config.headers ?? {}) as Record<string, string>;
    return { ...config, headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, maskSecret(value)])) };
  }
  return config;
}

/** On update: a secret sent back exactly as we masked it means "keep the stored one". */
export function keepMaskedSecrets(type: ChannelType, incoming: Record<string, unknown>, stored: Record<string, unknown> | undefined, storedType: ChannelType | undefined) {
  if (!stored || storedType !== type) return incoming;
  if (type === 'pager') {
    const key = String(stored.integration_key);
    return incoming.integration_key === maskSecret(key) ? { ...incoming, integration_key: key } : incoming;
  }
  if (type === 'webhook') {
    const old = (stored.headers ?? {}) as Record<string, string>;
    const headers = Object.fromEntries(
      Object.entries((incoming.headers ?? {}) as Record<string, string>).map(([name, value]) =>
        [name, old[name] !== undefined && value === maskSecret(old[name]!) ? old[name]! : value],
      ),
    );
    return { ...incoming, headers };
  }
  return incoming;
}
