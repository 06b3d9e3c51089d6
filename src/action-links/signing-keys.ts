/**
 * Each tenant's action-link signing key, kept in the event log (`action-link-keys-<tenantId>`,
 * sealed at rest): the newest ActionLinkKeyRotated is the key, its revision the generation a token
 * names. The first page of a tenant makes its first key (appended expecting "no stream", so two
 * instances racing agree on one); a rotation appends another, refusing every link signed before.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { isWrongExpectedRevision, type EventStore } from '../eventstore/port.js';
import { actionLinkKeyStream } from '../events/action-link.js';

export const ACTION_LINKS_ACTOR = 'system:action-links';

export interface SigningKey {
  key: Buffer;
  generation: number;
}

export interface SigningKeys {
  /** The tenant's key, or null when it has none yet. */
  current(tenantId: string): Promise<SigningKey | null>;
  /** The tenant's key, made if it has none yet. */
  ensure(tenantId: string): Promise<SigningKey>;
  /** A new key: every link signed before is refused from now on. */
  rotate(
    tenantId: string,
    actor: string,
    correlationId: string,
  ): Promise<{ generation: number; position: bigint; at: string }>;
}

export function eventLogSigningKeys(eventStore: EventStore, now: () => Date): SigningKeys {
  const current = async (tenantId: string): Promise<SigningKey | null> => {
    // Only the newest event is the key: one event read, however many rotations the stream holds.
    const [last] = await eventStore.readStream(actionLinkKeyStream(tenantId), { direction: 'backwards', maxCount: 1 });
    if (!last || last.metadata.tenantId !== tenantId) return null;
    return { key: Buffer.from(String(last.data.key), 'base64url'), generation: Number(last.revision) };
  };
  const keyEvent = (tenantId: string, actor: string, correlationId: string) => {
    const at = now().toISOString();
    return {
      type: 'ActionLinkKeyRotated',
      data: { tenantId, key: randomBytes(32).toString('base64url'), rotatedBy: actor, at },
      metadata: { tenantId, actor, correlationId, causationId: correlationId, occurredAt: at },
    };
  };
  return {
    current,
    async ensure(tenantId) {
      const existing = await current(tenantId);
      if (existing) return existing;
      try {
        await eventStore.append(actionLinkKeyStream(tenantId), [keyEvent(tenantId, ACTION_LINKS_ACTOR, randomUUID())], {
          expectedRevision: 'no_stream',
        });
      } catch (error) {
        if (!isWrongExpectedRevision(error)) throw error; // another instance made it first: use theirs
      }
      return (await current(tenantId))!;
    },
    async rotate(tenantId, actor, correlationId) {
      const event = keyEvent(tenantId, actor, correlationId);
      const result = await eventStore.append(actionLinkKeyStream(tenantId), [event], { expectedRevision: 'any' });
      return { generation: Number(result.nextRevision), position: result.position, at: event.data.at };
    },
  };
}
