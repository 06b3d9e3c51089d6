/**
 * The deployment's key for heartbeat ping tokens' keyed hashes (src/events/heartbeat.ts): 32
 * random bytes in the `heartbeat-token-key` stream, sealed at rest. Made by the first instance that
 * needs it, appended expecting "no stream", so instances racing agree on one; read once, then kept.
 * It never changes: every address ever issued is hashed with it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { isWrongExpectedRevision, type EventStore } from '../../eventstore/port.js';
import { HEARTBEAT_TOKEN_KEY_STREAM } from '../../events/heartbeat.js';

/** The stream belongs to no tenant; its events say so. */
export const DEPLOYMENT_TENANT = 'deployment';

export function heartbeatTokenKey(eventStore: EventStore, now: () => Date): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  const read = async (): Promise<Buffer | null> => {
    const [first] = await eventStore.readStream(HEARTBEAT_TOKEN_KEY_STREAM, { maxCount: 1 });
    return first ? Buffer.from(String(first.data.key), 'base64url') : null;
  };
  const ensure = async (): Promise<Buffer> => {
    const existing = await read();
    if (existing) return existing;
    const at = now().toISOString();
    const correlationId = randomUUID();
    try {
      await eventStore.append(
        HEARTBEAT_TOKEN_KEY_STREAM,
        [
          {
            type: 'HeartbeatTokenKeyMade',
            data: { key: randomBytes(32).toString('base64url'), at },
            metadata: {
              tenantId: DEPLOYMENT_TENANT,
              actor: 'system:heartbeats',
              correlationId,
              causationId: correlationId,
              occurredAt: at,
            },
          },
        ],
        { expectedRevision: 'no_stream' },
      );
    } catch (error) {
      if (!isWrongExpectedRevision(error)) throw error; // another instance made it first: use theirs
    }
    return (await read())!;
  };
  return () => {
    // A failed read is not kept: the next ping tries again.
    key ??= ensure().catch((error) => {
      key = undefined;
      throw error;
    });
    return key;
  };
}
