/** The answer of every `GET …/{id}/events`: a resource's raw event history (src/http/event-history.ts). */
import { z } from 'zod';
import { instant } from './answer-pieces.js';

/** One event of a raw history (src/http/event-history.ts). */
export const historyEntrySchema = z.object({
  id: z.string(),
  stream: z.string().meta({ description: 'the stream the event belongs to (hashed)' }),
  type: z.string().meta({ description: 'the event type, e.g. IncidentTriggered or ChannelTestSent' }),
  revision: z.string().meta({ description: "position in the resource's stream (a decimal string)" }),
  position: z.string().meta({ description: 'position in the global log (a decimal string)' }),
  occurred_at: instant,
  actor: z.string(),
  correlation_id: z.string(),
  data: z.record(z.string(), z.unknown()),
  metadata: z
    .object({
      tenantId: z.string(),
      actor: z.string(),
      correlationId: z.string(),
      causationId: z.string(),
      occurredAt: z.string(),
    })
    .meta({ description: "the event's metadata as stored (hashed)" }),
  hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable()
    .meta({
      description:
        'SHA-256 (hex) of the canonical JSON (RFC 8785) of `{ stream, revision, type, data, metadata, previousHash }`; null on events written before the chain existed',
    }),
  previous_hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable()
    .meta({ description: "the hash of the stream's previous event; null where the chain starts" }),
  log_chain_start: z
    .string()
    .regex(/^[0-9]{1,20}$/)
    .nullable()
    .meta({
      description:
        'the global position from which every event of the log carries a hash (a decimal string; the same on every entry); null on a log written before the chain start was recorded, whose unhashed events and missing stream starts cannot be judged',
    }),
  stream_retention: z.boolean().meta({
    description:
      'whether retention applies to the stream, so that its oldest events may be gone; without it, a history that does not start at revision 0 has lost events',
  }),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
