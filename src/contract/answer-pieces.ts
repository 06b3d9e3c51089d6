/**
 * The small pieces every answer schema is built from: ids, instants, nullable text, the page of a
 * list, the `{ id, deleted: true }` of a DELETE. zod only: the server validates and documents with
 * them, the console imports their inferred types (type-only, so zod stays out of its bundle).
 */
import { z } from 'zod';

/** A resource id (a UUID, as the API creates them). */
export const resourceId = z.string().meta({ format: 'uuid', description: 'resource id (UUID)' });
/** An ISO 8601 date-time, as the API writes them. */
export const instant = z.string().meta({ format: 'date-time' });
export const optionalText = z.string().nullable();

/** The `page` beside a list's `data` (src/http/pagination.ts). */
export const pageSchema = z.object({
  limit: z.number().int(),
  next_cursor: z.string().nullable().meta({ description: 'null on the last page' }),
});
export type Page = z.infer<typeof pageSchema>;

export const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
export type Deleted = z.infer<typeof deletedSchema>;
