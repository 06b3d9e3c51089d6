/**
 * Browsers: CORS on the configured origins only, and stream tickets so an EventSource (which
 * cannot send headers) reaches the SSE feed without an access token in its URL. The tickets'
 * clock is the platform's, driven here.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { connectSse } from './support/sse-client.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const ALLOWED = 'https://console.example.com';
const FEED = '/api/v1/incidents/stream';
let clock = new Date('2026-03-01T12:00:00Z');
let app: TestApp;
let owner: Caller;
test.before(async () => {
  app = await startTestApp({ env: { CORS_ORIGINS: `${ALLOWED}, http://localhost:5173` }, now: () => clock });
  owner = app.newTenant();
});
test.after.always(async () => app?.close());

const preflight = (origin: string, path = '/api/v1/alert-rules') =>
  fetch(`${app.url}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'authorization, if-match, content-type',
    },
  });

test('a preflight from an allowed origin is answered without a token, naming methods and headers', async (t) => {
  const response = await preflight(ALLOWED);
  t.is(response.status, 204);
  t.is(response.headers.get('access-control-allow-origin'), ALLOWED);
  t.is(
    response.headers.get('access-control-allow-credentials'),
    null,
    'no credentials: the API takes bearer tokens, not cookies',
  );
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
    t.true(response.headers.get('access-control-allow-methods')!.includes(method));
  const headers = response.headers.get('access-control-allow-headers')!.toLowerCase();
  for (const header of ['authorization', 'if-match', 'content-type', 'last-event-id'])
    t.true(headers.includes(header), header);
  t.true(response.headers.get('vary')!.includes('Origin'));
});

test('a preflight from another origin gets no CORS headers', async (t) => {
  const response = await preflight('https://evil.example.com');
  t.is(response.status, 403);
  t.is(response.headers.get('access-control-allow-origin'), null);
});

test('without CORS_ORIGINS no origin is allowed: preflights are refused and answers carry no CORS headers', async (t) => {
  const closed = await startTestApp();
  try {
    const preflight = await fetch(`${closed.url}/api/v1/alert-rules`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'GET' },
    });
    t.is(preflight.status, 403);
    t.is(preflight.headers.get('access-control-allow-origin'), null);
    const answer = await closed.request('GET', '/api/v1/roles', {
      caller: closed.newTenant(),
      headers: { origin: ALLOWED },
    });
    t.is(answer.status, 200);
    for (const header of ['access-control-allow-origin', 'access-control-expose-headers'])
      t.is(answer.headers.get(header), null, header);
  } finally {
    await closed.close();
  }
});

test('an actual request from an allowed origin exposes ETag, Location, X-Read-Model-Pending and X-Read-Position; others get no CORS headers', async (t) => {
  const allowed = await app.request('POST', '/api/v1/roles', {
    caller: owner,
    body: { name: 'cors role', permissions: {} },
    headers: { origin: ALLOWED },
  });
  t.is(allowed.status, 201);
  t.is(allowed.headers.get('access-control-allow-origin'), ALLOWED);
  const exposed = allowed.headers.get('access-control-expose-headers')!;
  for (const header of ['ETag', 'Location', 'X-Read-Model-Pending', 'X-Read-Position'])
    t.true(exposed.includes(header), header);
  const refused = await app.request('GET', '/api/v1/roles', {
    caller: owner,
    headers: { origin: 'https://evil.example.com' },
  });
  t.is(refused.status, 200, 'CORS is enforced by browsers; the server just does not allow the origin');
  t.is(refused.headers.get('access-control-allow-origin'), null);
  const unauthenticated = await app.request('GET', '/api/v1/roles', { headers: { origin: ALLOWED } });
  t.is(unauthenticated.status, 401);
  t.is(unauthenticated.headers.get('access-control-allow-origin'), ALLOWED, 'a browser page can read the 401');
});

const ticketFor = async (caller: Caller, path = FEED) => {
  const response = await app.request('POST', '/api/v1/stream-tickets', { caller, body: { path } });
  return response;
};

/** Opens the feed with a ticket and reports the status (the stream is closed at once). */
async function openWithTicket(ticket: string, path = FEED): Promise<number> {
  const stream = connectSse(`${app.url}${path}?ticket=${encodeURIComponent(ticket)}`, {});
  await waitFor(() => stream.status() !== 0, { message: 'the feed answer' });
  const status = stream.status();
  await stream.close();
  return status;
}

test.serial('a stream ticket opens its feed once', async (t) => {
  const issued = await ticketFor(owner);
  t.is(issued.status, 201);
  t.regex(issued.body.data.ticket, /^[\w-]{40,}$/);
  t.is(issued.body.data.expires_at, new Date(clock.getTime() + 60_000).toISOString());

  // The ticket's principal is the owner: the feed carries the owner's incidents.
  const stream = connectSse(`${app.url}${FEED}?ticket=${issued.body.data.ticket}`, {});
  await waitFor(() => stream.status() !== 0, { message: 'the feed answer' });
  t.is(stream.status(), 200);
  await stream.close();

  t.is(await openWithTicket(issued.body.data.ticket), 401, 'a used ticket is spent');
});

test.serial(
  "a stream ticket opens the sync stream too (the dashboard's sync page), with its first sync_update",
  async (t) => {
    const path = '/api/v1/sync/stream';
    const issued = await ticketFor(owner, path);
    t.is(issued.status, 201);
    const stream = connectSse(`${app.url}${path}?ticket=${encodeURIComponent(issued.body.data.ticket)}`, {});
    await waitFor(() => stream.events.length > 0, { message: 'the first sync_update' });
    t.is(stream.status(), 200);
    t.is(stream.events[0]!.event, 'sync_update');
    t.true(Array.isArray(stream.events[0]!.data.jobs));
    await stream.close();
    t.is(await openWithTicket(issued.body.data.ticket, path), 401, 'a used ticket is spent');
  },
);

test.serial('a stream ticket is refused after 60 seconds, on another path, and when unknown', async (t) => {
  const expiring = (await ticketFor(owner)).body.data.ticket;
  clock = new Date(clock.getTime() + 60_001);
  t.is(await openWithTicket(expiring), 401, 'expired');

  const elsewhere = (await ticketFor(owner)).body.data.ticket;
  const other = await fetch(`${app.url}/api/v1/alert-rules?ticket=${elsewhere}`);
  t.is(other.status, 401, 'not a token for other routes');
  t.is(other.headers.get('content-type'), 'application/problem+json');

  t.is(await openWithTicket('not-a-ticket'), 401);
  t.is(await openWithTicket(randomUUID()), 401);
  const tokenInUrl = await fetch(`${app.url}${FEED}?access_token=${app.token(owner)}`);
  t.is(tokenInUrl.status, 401, 'an access token is never taken from a URL');
  await tokenInUrl.body?.cancel();
});

test.serial('a stream ticket names a feed, and its permission is checked when it is used', async (t) => {
  const notAFeed = await ticketFor(owner, '/api/v1/alert-rules');
  t.is(notAFeed.status, 400);
  t.is(notAFeed.body.errors[0].path, '/path');
  t.is(
    (await app.request('POST', '/api/v1/stream-tickets', { body: { path: FEED } })).status,
    401,
    'issuing needs a token',
  );
  const viewerWithoutIncidents = { ...app.newTenant(), roles: ['nobody'] };
  const ticket = (await ticketFor(viewerWithoutIncidents)).body.data.ticket;
  t.is(await openWithTicket(ticket), 403);
});

test('a Last-Event-ID beyond the head of the log is a 400 with the head position', async (t) => {
  await app.request('POST', '/api/v1/roles', {
    caller: owner,
    body: { name: `role ${randomUUID()}`, permissions: {} },
  });
  const head = await app.platform.eventStore.headPosition();
  const beyond = String(head + 1000n);
  for (const [headers, query] of [
    [{ 'last-event-id': beyond }, ''],
    [{}, `?last_event_id=${beyond}`],
  ] as const) {
    const response = await app.request('GET', `${FEED}${query}`, { caller: owner, headers });
    t.is(response.status, 400);
    t.true(BigInt(response.body.head_position) >= head);
    t.is(response.body.errors[0].path, '/last_event_id');
  }
  const atHead = connectSse(`${app.url}${FEED}`, {
    authorization: `Bearer ${app.token(owner)}`,
    'last-event-id': String(head),
  });
  await waitFor(() => atHead.status() !== 0, { message: 'the feed answer' });
  t.is(atHead.status(), 200, 'the head itself is a fine place to resume');
  await atHead.close();
});
