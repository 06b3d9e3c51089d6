/**
 * Which parts of a channel's config are secrets: the one list that masking in answers, keeping a
 * masked secret on update, and encryption at rest (src/secrets, src/eventstore/encrypting.ts) all
 * follow. Secrets (pager integration_key, webhook header values, the chat webhook_url, whose path
 * is a bearer secret) are write-only: answers show them masked.
 */
import { actionLinkEventSecrets } from './action-link.js';
import { heartbeatEventSecrets } from './heartbeat.js';

/** Where a secret sits under `config`, e.g. ['headers', 'Authorization']. */
export type SecretPath = readonly string[];

interface SecretField {
  path: SecretPath;
  mask: (secret: string) => string;
}

const MASK_PREFIX = '****';
export const maskSecret = (secret: string) => `${MASK_PREFIX}${secret.length > 8 ? secret.slice(-4) : ''}`;

/** A URL whose path is the secret (Slack-style incoming webhooks): scheme and host stay readable. */
export function maskSecretUrl(secret: string) {
  if (!URL.canParse(secret)) return maskSecret(secret);
  const url = new URL(secret);
  return `${url.origin}/${maskSecret(`${url.pathname}${url.search}${url.hash}`)}`;
}

const asRecord = (value: unknown) =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

function secretFields(type: string, config: Record<string, unknown>): SecretField[] {
  switch (type) {
    case 'pager':
      return [{ path: ['integration_key'], mask: maskSecret }];
    case 'chat':
      return [{ path: ['webhook_url'], mask: maskSecretUrl }];
    case 'webhook':
      return Object.keys(asRecord(config.headers)).map((name) => ({ path: ['headers', name], mask: maskSecret }));
    default:
      return [];
  }
}

function valueAt(config: Record<string, unknown>, path: SecretPath): unknown {
  return path.reduce<unknown>((node, key) => asRecord(node)[key], config);
}

function withValueAt(config: Record<string, unknown>, path: SecretPath, value: string): Record<string, unknown> {
  const [key, ...rest] = path;
  if (key === undefined) return config;
  return { ...config, [key]: rest.length === 0 ? value : withValueAt(asRecord(config[key]), rest, value) };
}

/** The config with every (string) secret replaced: masked, encrypted, decrypted. Everything else is kept as is. */
export function mapChannelSecrets(
  type: string,
  config: Record<string, unknown>,
  replace: (secret: string, path: SecretPath) => string,
) {
  return secretFields(type, config).reduce((result, { path }) => {
    const value = valueAt(result, path);
    return typeof value === 'string' ? withValueAt(result, path, replace(value, path)) : result;
  }, config);
}

/** The config as clients see it. */
export function maskChannelConfig(type: string, config: Record<string, unknown>): Record<string, unknown> {
  const masks = new Map(secretFields(type, config).map((field) => [field.path.join('\u0000'), field.mask]));
  return mapChannelSecrets(type, config, (secret, path) => masks.get(path.join('\u0000'))!(secret));
}

/**
 * Where the channel sends to. A stored secret may stay (come back masked) only while this is
 * unchanged: otherwise anyone allowed to edit the channel could point it, and the secret, at a
 * host of their own. The pager destination is the fixed Events API; the chat one is webhook_url.
 */
function destinationOf(type: string, config: Record<string, unknown>) {
  if (type === 'webhook') return String(config.url);
  if (type === 'chat') return String(config.webhook_url);
  return '';
}

/** JSON pointer (RFC 6901) of a secret in the request body. */
export const secretPointer = (path: SecretPath) =>
  `/config/${path.map((key) => key.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

export interface ChannelConfigOf {
  type: string;
  config: Record<string, unknown>;
}

export type KeptSecrets = { config: Record<string, unknown> } | { mustBeGivenAgain: SecretPath[] };

/** Every string in a config with its path (header values, urls, recipients, …). */
function stringsOf(node: unknown, path: string[] = []): [SecretPath, string][] {
  if (typeof node === 'string') return [[path, node]];
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => stringsOf(value, [...path, key]));
}

/** The stored secrets as an answer showed them. */
const storedMasks = (stored: ChannelConfigOf) =>
  new Set(
    secretFields(stored.type, stored.config).flatMap(({ path, mask }) => {
      const secret = valueAt(stored.config, path);
      return typeof secret === 'string' ? [mask(secret)] : [];
    }),
  );

/**
 * On update: a secret sent back exactly as we masked it means "keep the stored one", but only
 * while the destination (type, url, webhook_url) is unchanged. Otherwise every value that is one
 * of the stored masks, wherever it is sent (the same field, another header, another type's
 * field), must be given again in clear: a masked value never travels to a new destination, not
 * even as the literal mask.
 */
export function keepMaskedSecrets(incoming: ChannelConfigOf, stored: ChannelConfigOf | undefined): KeptSecrets {
  if (!stored) return { config: incoming.config };
  const config = mapChannelSecrets(incoming.type, incoming.config, (value, path) => {
    const secret = valueAt(stored.config, path);
    const field = secretFields(stored.type, stored.config).find((f) => f.path.join('\u0000') === path.join('\u0000'));
    return typeof secret === 'string' && field && value === field.mask(secret) ? secret : value;
  });
  const sameDestination =
    incoming.type === stored.type && destinationOf(incoming.type, config) === destinationOf(stored.type, stored.config);
  if (sameDestination) return { config };
  const masks = storedMasks(stored);
  const masked = stringsOf(incoming.config)
    .filter(([, value]) => masks.has(value))
    .map(([path]) => path);
  return masked.length > 0 ? { mustBeGivenAgain: masked } : { config };
}

type ChannelEventData = Record<string, unknown>;
const replaceConfigSecrets = (data: ChannelEventData, replace: (secret: string) => string): ChannelEventData =>
  typeof data.type === 'string' && typeof data.config === 'object' && data.config !== null
    ? { ...data, config: mapChannelSecrets(data.type, data.config as Record<string, unknown>, replace) }
    : data;

/**
 * The events that carry secrets, for encryption at rest (src/eventstore/encrypting.ts): channels',
 * and the action-link signing keys (src/events/action-link.ts), so every store that opens one opens both.
 */
export const channelEventSecrets = {
  ...actionLinkEventSecrets,
  ...heartbeatEventSecrets,
  ChannelCreated: replaceConfigSecrets,
  ChannelUpdated: replaceConfigSecrets,
  ChannelSigningSecretSet: (data: ChannelEventData, replace: (secret: string) => string): ChannelEventData =>
    typeof data.signingSecret === 'string' ? { ...data, signingSecret: replace(data.signingSecret) } : data,
};
