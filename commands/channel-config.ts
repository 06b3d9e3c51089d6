/**
 * Notification channel configuration, validated per type (SPEC.md, Notification channel).
 * Unknown fields are rejected. Secrets (pager integration_key, webhook header values) are
 * write-only: responses show them masked, and a PUT that sends a masked value back keeps the
 * stored secret.
 */
import { z } from 'zod';

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' });
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
/** What the pager Events API v2 accepts as a severity. */
export const PAGER_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;

export const channelConfigSchemas = {
  chat: z.strictObject({ webhook_url: httpUrl, channel_name: z.string().trim().min(1) }),
  email: z.strictObject({
    recipients: z.array(z.email()).min(1, 'at least one recipient is required').max(100),
    subject_template: z.string().trim().min(1).max(500),
  }),
  pager: z.strictObject({
    integration_key: z.string().trim().min(1).max(200),
    severity_mapping: z.strictObject(
      Object.fromEntries(SEVERITIES.map((s) => [s, z.enum(PAGER_SEVERITIES)])) as Record<(typeof SEVERITIES)[number], z.ZodEnum<{ [K in (typeof PAGER_SEVERITIES)[number]]: K }>>,
    ),
  }),
  webhook: z.strictObject({
    url: httpUrl,
    headers: z.record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid header name'), z.string().max(4096)).default({}),
    method: z.enum(['POST', 'PUT']),
  }),
};

export type ChannelType = keyof typeof channelConfigSchemas;
export const CHANNEL_TYPES = Object.keys(channelConfigSchemas) as ChannelType[];

export const channelBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  type: z.enum(CHANNEL_TYPES as [ChannelType, ...ChannelType[]]),
  config: z.record(z.string(), z.unknown()),
});

/** Validates `config` for its type; issues carry paths under /config. */
export function parseChannelBody(body: unknown) {
  const base = channelBodySchema.parse(body);
  const config = channelConfigSchemas[base.type].safeParse(base.config);
  if (!config.success) {
    throw new z.ZodError(config.error.issues.map((issue) => ({ ...issue, path: ['config', ...issue.path] })));
  }
  return { ...base, config: config.data as Record<string, unknown> };
}

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
