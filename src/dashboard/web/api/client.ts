/**
 * The API client: every call carries the bearer token, unwraps `{ success, data }`, and turns a
 * problem+json answer into an ApiError with the problem's detail. A 401 means the token expired
 * or was refused: the session ends and the sign-in page shows again.
 */

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export interface ApiClient {
  get<T>(path: string): Promise<T>;
  send<T>(method: 'POST' | 'PATCH', path: string, body?: unknown): Promise<T>;
}

async function problemMessage(response: Response): Promise<string> {
  try {
    const problem = (await response.json()) as { detail?: string; title?: string };
    return problem.detail ?? problem.title ?? `HTTP ${response.status}`;
  } catch {
    return `HTTP ${response.status}`;
  }
}

export function apiClient(token: string, onUnauthorized: () => void): ApiClient {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.status === 401) onUnauthorized();
    if (!response.ok) throw new ApiError(response.status, await problemMessage(response));
    return ((await response.json()) as { data: T }).data;
  }
  return {
    get: (path) => call('GET', path),
    send: (method, path, body) => call(method, path, body),
  };
}
