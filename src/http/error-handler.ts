import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import { isDomainRejection } from '../commanding/domain-rejection.js';
import { isStreamBusy } from '../commanding/stream-busy.js';
import { EventStoreUnavailableError } from '../eventstore/port.js';
import { ReadStoreUnavailableError } from '../readstore/port.js';
import { isDamagedFileError } from '../sqlite/damaged-file.js';
import { HttpProblem, serviceUnavailable, type ProblemFieldError } from './problem.js';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** zod issues → problem `errors` with JSON-pointer paths. */
export const zodFieldErrors = (error: ZodError): ProblemFieldError[] =>
  error.issues.map((issue) => ({ path: `/${issue.path.map(String).join('/')}`, message: issue.message }));

function toProblem(error: unknown): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof ZodError)
    return new HttpProblem(400, 'Bad Request', 'the request is invalid', zodFieldErrors(error));
  if (error instanceof EventStoreUnavailableError)
    return new HttpProblem(503, TITLES[503]!, 'the event store is unavailable; retry later');
  if (error instanceof ReadStoreUnavailableError)
    return new HttpProblem(503, TITLES[503]!, 'the read store is unavailable; retry later');
  if (isDamagedFileError(error))
    return new HttpProblem(
      503,
      TITLES[503]!,
      'the stored data this request needs is damaged; /health tells the operator how to recover it',
    );
  // Contention by other writers is not the client's conflict: the same request lands once it is quieter.
  if (isStreamBusy(error)) return serviceUnavailable(error.message, error.retryAfterSeconds);
  if (isDomainRejection(error)) {
    const status = { not_found: 404, conflict: 409, invalid: 400 }[error.kind];
    return new HttpProblem(status, TITLES[status]!, error.message, error.errors, error.details);
  }
  const status = (error as { status?: unknown }).status;
  const expose = (error as { expose?: unknown }).expose;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Koa/http-errors raised by middlewares (koa-jwt 401, body parser 413/400/415); their
    // messages are written for clients.
    const detail = expose ? (error as Error).message : (TITLES[status] ?? 'Request error');
    return new HttpProblem(status, TITLES[status] ?? 'Request error', detail);
  }
  return new HttpProblem(500, TITLES[500]!, 'an unexpected error occurred; it has been logged');
}

/** Renders every failure as application/problem+json; internals go to the log only. */
export const problemJson: Middleware = async (ctx, next) => {
  try {
    await next();
    if (ctx.status === 404 && ctx.body === undefined)
      throw new HttpProblem(404, 'Not Found', `no route for ${ctx.method} ${ctx.path}`);
    if (ctx.status === 405 && typeof ctx.body !== 'object')
      throw new HttpProblem(405, 'Method Not Allowed', `${ctx.method} is not allowed on ${ctx.path}`);
  } catch (error) {
    const problem = toProblem(error);
    if (problem.status >= 500) ctx.state.log?.error({ err: error }, 'request failed');
    else ctx.state.log?.debug({ err: error }, 'request rejected');
    ctx.status = problem.status;
    ctx.type = 'application/problem+json';
    for (const [name, value] of Object.entries(problem.headers)) ctx.set(name, value);
    // Authentication sets a challenge naming the failed check (src/auth/token-rejection.ts).
    if (problem.status === 401 && !ctx.response.get('WWW-Authenticate')) ctx.set('WWW-Authenticate', 'Bearer');
    ctx.body = {
      type: 'about:blank',
      title: problem.title,
      status: problem.status,
      detail: problem.detail ?? problem.title,
      ...(problem.errors ? { errors: problem.errors } : {}),
      ...problem.extensions,
      request_id: ctx.state.requestId,
    };
  }
};
