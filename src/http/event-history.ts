/**
 * One recorded event as the raw-history endpoints answer it (`GET /incidents/{id}/events`,
 * `GET /notification-channels/{id}/events`): positions as decimal strings (they are bigints),
 * the envelope's who and when, and the event's data as given (a caller redacts it first). With
 * the stream, the whole metadata and the chain link (`hash`, `previous_hash`; null on events
 * written before the chain), an exported history holds everything its hashes cover, so an auditor
 * recomputes them offline: `node src/verify-export.mjs history.json`. Every entry also says what
 * the auditor's check needs to judge where the stream's chain may begin: the log's chain start
 * (events from that position on must carry a hash; null on a log written before it was recorded)
 * and whether retention applies to the stream (only then may its oldest events be gone). On every
 * entry, so the `data` array saved alone still holds them.
 */
import type { EventStore, RecordedEvent } from '../eventstore/port.js';
import { notFound } from './problem.js';

export interface HistoryChain {
  log_chain_start: string | null;
  stream_retention: boolean;
}

export async function historyChainOf(eventStore: EventStore, stream: string): Promise<HistoryChain> {
  const [start, retention] = await Promise.all([eventStore.chainStart(), eventStore.hasRetention(stream)]);
  return { log_chain_start: start === null ? null : String(start), stream_retention: retention };
}

export const historyEntry = (
  event: RecordedEvent,
  chain: HistoryChain,
  data: Record<string, unknown> = event.data,
) => ({
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
  ...chain,
});

/**
 * A tenant's resource history, oldest first: every event of the stream as `historyEntry` gives it, or
 * a 404 naming `resource` when the stream is empty or another tenant's (which it must not reveal).
 */
export async function tenantStreamHistory(
  eventStore: EventStore,
  stream: string,
  tenantId: string,
  resource: string,
): Promise<ReturnType<typeof historyEntry>[]> {
  const events = await eventStore.readStream(stream);
  if (events.length === 0 || events[0]!.metadata.tenantId !== tenantId) throw notFound(resource);
  const chain = await historyChainOf(eventStore, stream);
  return events.map((event) => historyEntry(event, chain));
}
