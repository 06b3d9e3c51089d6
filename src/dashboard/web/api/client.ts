/**
 * The API client: every call carries the bearer token, unwraps `{ success, data }` (or, with
 * `bare`, takes the body as it is: the answers whose top-level fields SPEC.md names, such as
 * current on-call, slow queries, storage and the sync trigger), and turns a problem+json answer
 * into an ApiError with the problem's detail. A 401 means the token expired
 * or was refused: its detail is noted for the sign-in page (which says why the session ended),
 * then the session ends and the sign-in page shows again.
 *
 * Read-your-writes behind a load balancer: the last write's `X-Read-Position` goes with every
 * later read as `X-Min-Read-Position`, so whichever instance answers shows the change. The same holds
 * for what a live feed announced (`sawPosition`): the feed is read from the log, the answers from read
 * models that may not have applied that event yet, and a view that reads again because of an event
 * must see it (issue 37: a page that re-read on an acknowledgement's event could still show it
 * triggered, and nothing later told it otherwise).
 */
import { noteSessionEnded } from '../session.js';

/** A problem's field error: `path` is a JSON pointer into the request body (`/prompt`). */
export interface FieldProblem {
  path: string;
  message: string;
}

export class ApiError extends Error {
  /** `retryAfterSeconds`: a 429's or 503's Retry-After, when it gave one. */
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldProblem[] = [],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** An answer with its ETag (the revision to send back as If-Match). */
export interface Tagged<T> {
  data: T;
  etag: string | null;
}

export interface ApiClient {
  get<T>(path: string, shape?: AnswerShape): Promise<T>;
  send<T>(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown, shape?: AnswerShape): Promise<T>;
  /** Any method with extra headers (If-Match); the answer comes with its ETag. */
  tagged<T>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Tagged<T>>;
  /** A live feed delivered the event at this log position: later reads wait until the read models have it. */
  sawPosition(position: string): void;
  /**
   * Why a server-sent event stream would not open: a plain GET of it (a stream that does open is
   * closed at once), answering the 429's detail and Retry-After, or undefined when it is not refused.
   */
  whyRefused(path: string): Promise<StreamRefusal | undefined>;
}

/** A refused stream: the problem's detail (which cap) and its Retry-After. */
export interface StreamRefusal {
  detail: string;
  retryAfterSeconds?: number;
}

/** `envelope`: `{ success, data }`, the platform's default; `bare`: SPEC.md's top-level fields. */
export type AnswerShape = 'envelope' | 'bare';

async function problemOf(response: Response): Promise<{ message: string; errors: FieldProblem[] }> {
  try {
    const problem = (await response.json()) as { detail?: string; title?: string; errors?: FieldProblem[] };
    return {
      message: problem.detail ?? problem.title ?? `HTTP ${response.status}`,
      errors: Array.isArray(problem.errors) ? problem.errors : [],
    };
  } catch {
    return { message: `HTTP ${response.status}`, errors: [] };
  }
}

export function apiClient(token: string, onUnauthorized: () => void): ApiClient {
  let readPosition: bigint | undefined;
  const raise = (position: string | null) => {
    if (position && /^\d{1,20}$/.test(position) && (readPosition === undefined || BigInt(position) > readPosition))
      readPosition = BigInt(position);
  };
  async function call<T>(
    method: string,
    path: string,
    body: unknown,
    shape: AnswerShape = 'envelope',
    extraHeaders: Record<string, string> = {},
  ): Promise<Tagged<T>> {
    const headers: Record<string, string> = { ...extraHeaders, Authorization: `Bearer ${token}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method === 'GET' && readPosition !== undefined) headers['X-Min-Read-Position'] = String(readPosition);
    const response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    raise(response.headers.get('X-Read-Position'));
    if (!response.ok) {
      const { message, errors } = await problemOf(response);
      if (response.status === 401) {
        noteSessionEnded(message);
        onUnauthorized();
      }
      const retryAfter = Number(response.headers.get('Retry-After') ?? Number.NaN);
      throw new ApiError(response.status, message, errors, Number.isFinite(retryAfter) ? retryAfter : undefined);
    }
    const answer = (await response.json()) as unknown;
    return {
      data: shape === 'bare' ? (answer as T) : (answer as { data: T }).data,
      etag: response.headers.get('ETag'),
    };
  }
  return {
    get: async (path, shape) => (await call<never>('GET', path, undefined, shape)).data,
    send: async (method, path, body, shape) => (await call<never>(method, path, body, shape)).data,
    tagged: (method, path, body, headers) => call(method, path, body, 'envelope', headers),
    sawPosition: raise,
    async whyRefused(path) {
      const asked = new AbortController();
      try {
        const response = await fetch(path, { headers: { Authorization: `Bearer ${token}` }, signal: asked.signal });
        if (response.status !== 429) return undefined;
        const retryAfter = Number(response.headers.get('Retry-After') ?? Number.NaN);
        return {
          detail: (await problemOf(response)).message,
          retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined,
        };
      } finally {
        asked.abort();
      }
    },
  };
}
