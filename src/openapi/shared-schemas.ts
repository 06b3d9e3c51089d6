/**
 * Pieces every area's documentation uses: ids, timestamps, the problem body, page parameters and
 * the common small answers (`{ id, deleted: true }`).
 */
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../http/pagination.js';

export { deletedSchema, instant, optionalText, pageSchema, resourceId } from '../contract/answer-pieces.js';
export { historyEntrySchema } from '../contract/event-history.js';

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

export { permissionGrants, permissionName } from '../contract/iam.js';
