/**
 * A body of some of a resource's fields (PUT and PATCH of users, schedules, channels) must name at
 * least one: `{}` is a 400 naming the fields, and `minProperties: 1` in the API document. The check
 * runs only on an otherwise valid body, so an unknown field alone is reported as that, not as "empty".
 */
import type { z } from 'zod';

export const nonEmptyBody = <Schema extends z.ZodObject>(schema: Schema): Schema =>
  schema
    .refine((body) => Object.keys(body).length > 0, {
      message: `send at least one of ${Object.keys(schema.shape).join(', ')}`,
      when: (payload) => payload.issues.length === 0,
    })
    .meta({ minProperties: 1 });
