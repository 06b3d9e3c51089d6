/**
 * Integration routing keys: 32 lowercase hex characters (16 random bytes, 128 bits), the length
 * PagerDuty's Events API v2 documents for `routing_key`, so every client that checks it (and our
 * own pager channels, commands/channels.ts) takes one. Only the key's keyed hash is stored
 * (HMAC-SHA256 under the deployment's key, the one heartbeat ping tokens use); an event is looked
 * up by that hash. The key is shown once, in the answer that made it.
 */
import { randomBytes } from 'node:crypto';
import { pingTokenHash, sameTokenHash } from './heartbeat-token.js';

const KEY_PATTERN = /^[0-9a-f]{32}$/;

export const newRoutingKey = (): string => randomBytes(16).toString('hex');

/** Whether the text can be a routing key at all (anything else is refused before any lookup). */
export const isRoutingKeyShape = (text: string): boolean => KEY_PATTERN.test(text);

export const routingKeyHash = (key: Buffer, routingKey: string): string => pingTokenHash(key, routingKey);

export const routingKeyHint = (routingKey: string): string => routingKey.slice(-4);

export const sameKeyHash = sameTokenHash;
