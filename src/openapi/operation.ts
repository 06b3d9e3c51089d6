/**
 * How a route is documented: one entry per operation, listed in the file of its area under
 * src/openapi/ (channels.ts, iam.ts, …). The permission and the accepted query parameters are not
 * written here: the document reads them from the route's own middleware (route-table.ts).
 *
 * Schemas are the zod schemas the code uses: request bodies are the very schemas the routes parse,
 * responses the schemas next to the operations (z.toJSONSchema renders both).
 */
import type { z } from 'zod';
import type { HttpMethod } from './route-table.js';

export type ProblemStatus = 400 | 401 | 403 | 404 | 405 | 409 | 412 | 413 | 415 | 422 | 429 | 503 | 504;

export interface OperationDoc {
  method: HttpMethod;
  /** The Koa path inside the area, as the router registers it: `/notification-channels/:id`. */
  path: string;
  summary: string;
  description?: string;
  /** Groups operations in the reference page, e.g. "Notification channels". */
  tag: string;
  /** Schemas (and descriptions) of the query parameters the route declares; the names come from the route. */
  query?: Record<string, z.ZodType>;
  /** The JSON request body, parsed by the route with this schema. */
  body?: z.ZodType;
  /** An empty body is accepted too (e.g. acknowledge, trigger). */
  bodyOptional?: boolean;
  /** The body's media types (default `application/json`). */
  bodyTypes?: readonly string[];
  /** Request headers the route reads besides Authorization and If-Match (e.g. Last-Event-ID). */
  headers?: Record<string, { description: string; schema: z.ZodType }>;
  /** Takes an optional `If-Match` (stale → 409, malformed → 400). */
  ifMatch?: boolean;
  /** Permissions needed besides the route's own, and when (`x-conditional-permissions`, and the 403's description). */
  conditionalPermissions?: readonly { permission: string; when: string }[];
  response: SuccessDoc;
  /** Problems beyond those the generator derives (400 for bodies and query parameters, 401, 403, 404 for path ids, 409 with If-Match, 413/415 for bodies, 503). */
  problems?: Partial<Record<ProblemStatus, string>>;
  /** Answers that are neither the success nor a problem (the token endpoint's OAuth errors). */
  otherResponses?: Record<number, { description: string; contentType: string; schema: z.ZodType }>;
}

export type SuccessDoc =
  /**
   * `{ success: true, data }` (and `page` when `list`). `bare`: SPEC.md names the answer's top-level
   * fields, so `data`'s fields are the whole body, no envelope (src/http/envelope.ts okBare). `etag`:
   * the answer carries an ETag; by default commands do (the revision they wrote,
   * src/http/command-context.ts) and queries do not.
   */
  | {
      kind: 'envelope';
      status: 200 | 201 | 202;
      description: string;
      data: z.ZodType;
      list?: boolean;
      etag?: boolean;
      location?: boolean;
      alsoStatus?: 200 | 201 | 202;
      bare?: boolean;
    }
  /** A server-sent event stream. */
  | { kind: 'event-stream'; description: string; events: string }
  /**
   * A body that is not the envelope (health, the identity provider, this document). `etag`: the answer
   * carries one (a command's revision); `conditional`: an ETag, and 304 for a matching If-None-Match.
   */
  | {
      kind: 'raw';
      status: 200 | 202;
      description: string;
      contentType: string;
      schema?: z.ZodType;
      alsoStatus?: 503;
      conditional?: boolean;
      etag?: boolean;
    };

/** The 429 of a heavy read request (src/http/heavy-request-slots.ts). */
export const HEAVY_REQUESTS_429 =
  'More heavy requests (previews, backtests, analytics) at once than HEAVY_REQUESTS_PER_TENANT for the tenant or HEAVY_REQUESTS_TOTAL for the instance (Retry-After)';
