/**
 * Errors that become application/problem+json responses (RFC 9457). Route code throws these;
 * src/http/error-handler.ts renders them. Anything else is a 500 with no internals exposed.
 */
export interface ProblemFieldError {
  /** JSON path of the offending field, e.g. "/config/recipients/0". */
  path: string;
  message: string;
}

export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: ProblemFieldError[],
    /** Extra members of the problem body (e.g. current_status on a 409). */
    readonly extensions: Record<string, unknown> = {},
    /** Response headers that go with the problem (e.g. Retry-After on a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? title);
  }
}

export const badRequest = (detail: string, errors?: ProblemFieldError[]) =>
  new HttpProblem(400, 'Bad Request', detail, errors);
export const unauthorized = (detail: string) => new HttpProblem(401, 'Unauthorized', detail);
export const forbidden = (detail: string) => new HttpProblem(403, 'Forbidden', detail);
export const notFound = (what: string) => new HttpProblem(404, 'Not Found', `${what} not found`);
export const conflict = (detail: string, extensions?: Record<string, unknown>) =>
  new HttpProblem(409, 'Conflict', detail, undefined, extensions);
/** A 422: the request is well-formed but asks for more than a limit allows (extensions name the limit and the figure). */
export const unprocessableContent = (detail: string, extensions?: Record<string, unknown>) =>
  new HttpProblem(422, 'Unprocessable Content', detail, undefined, extensions);
/** A 503; with `retryAfterSeconds`, saying when to come back (Retry-After, whole seconds, at least 1). */
export const serviceUnavailable = (detail: string, retryAfterSeconds?: number) =>
  new HttpProblem(
    503,
    'Service Unavailable',
    detail,
    undefined,
    {},
    retryAfterSeconds === undefined ? {} : { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );
/** A 429 saying when to come back (Retry-After, whole seconds, at least 1). */
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new HttpProblem(
    429,
    'Too Many Requests',
    detail,
    undefined,
    {},
    { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );
