/**
 * One recorded event as the raw-history endpoints answer it (`GET /incidents/{id}/events`,
 * `GET /notification-channels/{id}/events`): positions as decimal strings (they are bigints),
 * the envelope's who and when, and the event's data as given (a caller redacts it first). With
 * the stream, the whole metadata and the chain link (`hash`, `previous_hash`; null on events
 * written before the chain), an exported history holds everything its hashes cover, so an auditor
 * recomputes them offline: `node src/verify-export.mjs history.json`.
 */
import type { RecordedEvent } from '../eventstore/port.js';

export const historyEntry = (event: RecordedEvent, data: Record<string, unknown> = event.data) => ({
  id: event.id,
  stream: event.streamName,
  type: event.type,
  revision: String(event.revision),
  position: String(event.position),
  occurred_at: event.metadata.occurredAt,
  actor: event.metadata.actor,
  correlation_id: event.metadata.correlationId,
  data,
  metadata: event.metadata,
  hash: event.chain?.hash ?? null,
  previous_hash: event.chain?.previousHash ?? null,
});
