/**
 * Pieces every area's documentation uses: ids, timestamps, the problem body, page parameters and
 * the common small answers (`{ id, deleted: true }`).
 */
import { z } from 'zod';
import { ALL_PERMISSIONS } from '../access/permissions.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../http/pagination.js';

/** A resource id (a UUID, as the API creates them). */
export const resourceId = z.string().meta({ format: 'uuid', description: 'resource id (UUID)' });
/** An ISO 8601 date-time, as the API writes them. */
export const instant = z.string().meta({ format: 'date-time' });
export const optionalText = z.string().nullable();

/** The page parameters every list takes (src/http/pagination.ts). */
export const pageQuery = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .meta({ description: `page size, 1 to ${MAX_PAGE_SIZE}` }),
  cursor: z.string().meta({ description: 'opaque: the `page.next_cursor` of the previous page' }),
};

export const pageSchema = z.object({
  limit: z.number().int(),
  next_cursor: z.string().nullable().meta({ description: 'null on the last page' }),
});

/** RFC 9457 problem details (src/http/problem.ts, error-handler.ts). */
export const problemSchema = z
  .looseObject({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    errors: z
      .array(
        z.object({
          path: z.string().meta({ description: 'JSON pointer of the offending field or query parameter' }),
          message: z.string(),
        }),
      )
      .optional(),
    request_id: z.string().optional(),
  })
  .meta({ description: 'Extensions may follow, e.g. `current_status` or `referenced_by` on a 409.' });

export const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });

/** The permission names (src/access/permissions.ts). */
export const permissionName = z.enum(ALL_PERMISSIONS);

/** A permission map: permission → allow | deny, any subset of the permissions (an unknown name is a 400). */
export const permissionGrants = z.partialRecord(permissionName, z.enum(['allow', 'deny']));

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
