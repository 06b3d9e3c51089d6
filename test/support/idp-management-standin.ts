/**
 * A local stand-in for an Auth0-style management API: client-credentials tokens, users,
 * users-by-email and password-change tickets, with their real status codes. Tests can make a step
 * fail (with a status and the provider's message), hang, or revoke the tokens it issued.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StandInStep = 'token' | 'create_user' | 'find_user' | 'ticket';

export interface StandInRequest {
  step: StandInStep | 'unknown';
  method: string;
  path: string;
  body: Record<string, any> | undefined;
  authorization: string | undefined;
}

export interface ManagementStandIn {
  url: string;
  clientId: string;
  clientSecret: string;
  requests: StandInRequest[];
  users: Map<string, { user_id: string; email: string; name: string; app_metadata: Record<string, unknown> }>;
  tickets: { user_id: string; ticket: string }[];
  failWith(step: StandInStep, status: number, message: string): void;
  hang(step: StandInStep): void;
  heal(): void;
  revokeTokens(): void;
  stop(): Promise<void>;
}

function stepOf(method: string, path: string): StandInStep | 'unknown' {
  if (method === 'POST' && path === '/oauth/token') return 'token';
  if (method === 'POST' && path === '/api/v2/users') return 'create_user';
  if (method === 'GET' && path === '/api/v2/users-by-email') return 'find_user';
  if (method === 'POST' && path === '/api/v2/tickets/password-change') return 'ticket';
  return 'unknown';
}

export async function startManagementStandIn(options: { tokenLifetimeSeconds?: number } = {}): Promise<ManagementStandIn> {
  const clientId = `standin-${randomUUID().slice(0, 8)}`;
  const clientSecret = randomUUID();
  const tokens = new Set<string>();
  const failures = new Map<StandInStep, { status: number; message: string }>();
  const hanging = new Set<StandInStep>();
  const held: ServerResponse[] = [];
  let url = '';
  const state: Omit<ManagementStandIn, 'url' | 'stop'> = {
    clientId,
    clientSecret,
    requests: [],
    users: new Map(),
    tickets: [],
    failWith: (step, status, message) => void failures.set(step, { status, message }),
    hang: (step) => void hanging.add(step),
    heal: () => {
      failures.clear();
      hanging.clear();
    },
    revokeTokens: () => tokens.clear(),
  };

  const send = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const parsedUrl = new URL(req.url ?? '/', 'http://standin');
    const step = stepOf(req.method ?? '', parsedUrl.pathname);
    const body = raw ? (JSON.parse(raw) as Record<string, any>) : undefined;
    state.requests.push({ step, method: req.method ?? '', path: parsedUrl.pathname + parsedUrl.search, body, authorization: req.headers.authorization });
    if (step === 'unknown') return send(res, 404, { statusCode: 404, error: 'Not Found', message: 'no such endpoint' });
    if (hanging.has(step)) return void held.push(res);
    const failure = failures.get(step);
    if (failure) return send(res, failure.status, { statusCode: failure.status, error: 'Error', message: failure.message });

    if (step === 'token') {
      if (body?.client_id !== clientId || body?.client_secret !== clientSecret) return send(res, 401, { error: 'access_denied', error_description: 'Unauthorized' });
      if (body?.grant_type !== 'client_credentials' || body?.audience !== `${url}/api/v2/`) return send(res, 403, { error: 'access_denied', error_description: 'wrong grant or audience' });
      const token = randomUUID();
      tokens.add(token);
      return send(res, 200, { access_token: token, token_type: 'Bearer', expires_in: options.tokenLifetimeSeconds ?? 86400 });
    }
    const bearer = req.headers.authorization?.replace(/^Bearer /, '');
    if (!bearer || !tokens.has(bearer)) return send(res, 401, { statusCode: 401, error: 'Unauthorized', message: 'Invalid token' });

    if (step === 'create_user') {
      const email = String(body?.email ?? '').toLowerCase();
      if (!email || !body?.password || !body?.connection) return send(res, 400, { statusCode: 400, message: 'Payload validation error' });
      if (state.users.has(email)) return send(res, 409, { statusCode: 409, error: 'Conflict', message: 'The user already exists.' });
      const user = { user_id: `auth0|${randomUUID()}`, email, name: String(body.name), app_metadata: body.app_metadata ?? {} };
      state.users.set(email, user);
      return send(res, 201, user);
    }
    if (step === 'find_user') {
      const user = state.users.get((parsedUrl.searchParams.get('email') ?? '').toLowerCase());
      return send(res, 200, user ? [user] : []);
    }
    const owner = [...state.users.values()].find((user) => user.user_id === body?.user_id);
    if (!owner) return send(res, 404, { statusCode: 404, error: 'Not Found', message: 'The user does not exist.' });
    const ticket = { user_id: owner.user_id, ticket: `${url}/lo/reset?ticket=${randomUUID()}` };
    state.tickets.push(ticket);
    return send(res, 201, { ticket: ticket.ticket });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { message: 'stand-in failure' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...state,
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
