/**
 * Issue 25 item 8: a client trickling a body cannot hold a connection. Authentication comes before
 * any body byte is read, and the whole request must arrive within REQUEST_TIMEOUT_SECONDS (then
 * 408); long responses (server-sent events) are not cut by that bound.
 */
import test from 'ava';
import { connect } from 'node:net';
import { connectSse } from './support/sse-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

let app: TestApp;
/** With the default request timeout (30 s), so that nothing but the answer itself can close a connection within a test's deadline. */
let patient: TestApp;
test.before(async () => {
  [app, patient] = await Promise.all([
    startTestApp({ env: { REQUEST_TIMEOUT_SECONDS: '1', SSE_HEARTBEAT_SECONDS: '1' } }),
    startTestApp(),
  ]);
});
test.after.always(async () => Promise.all([app?.close(), patient?.close()]));

/** Sends raw bytes and collects what comes back until the server closes (or the test ends). */
function rawRequest(text: string, to: TestApp = app) {
  const { port } = new URL(to.url);
  // Written at once (queued until connected), so a later write cannot go out before it: on a loaded
  // machine the trickle's first byte came before the request line, and the server saw invalid HTTP.
  const socket = connect(Number(port), '127.0.0.1');
  socket.write(text);
  const seen = { answer: '', closed: false };
  socket.on('data', (chunk) => (seen.answer += chunk.toString('utf8')));
  socket.on('close', () => (seen.closed = true));
  socket.on('error', () => undefined);
  const write = (bytes: string) => {
    if (!socket.destroyed) socket.write(bytes);
  };
  return { seen, write, destroy: () => socket.destroy() };
}

test('an anonymous request announcing a body it never sends is refused (401) without the body being waited for', async (t) => {
  const request = rawRequest(
    'POST /api/v1/alert-rules HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"na',
  );
  t.teardown(request.destroy);
  await waitFor(() => request.seen.answer.includes('\r\n\r\n'), {
    timeoutMs: 900,
    message: 'an answer before the request timeout',
  });
  t.regex(request.seen.answer, /^HTTP\/1\.1 401 /);
});

test('an anonymous request trickling a body it will never have read is answered 401 and its connection closed (Connection: close), not held open', async (t) => {
  const request = rawRequest(
    'POST /api/v1/alert-rules HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"na',
    patient,
  );
  t.teardown(request.destroy);
  // The client keeps trickling, one byte at a time, as the attack does (every 5 s there; faster here).
  const trickle = setInterval(() => request.write('x'), 100);
  t.teardown(() => clearInterval(trickle));
  // Deadlines with room for a loaded machine, yet well inside the patient app's 30 s request
  // timeout, so a close by that timeout cannot pass for this one.
  await waitFor(() => request.seen.answer.includes('\r\n\r\n'), { timeoutMs: 12_000, message: 'the 401' });
  t.regex(request.seen.answer, /^HTTP\/1\.1 401 /);
  t.regex(request.seen.answer, /\r\nconnection: close\r\n/i);
  // Once the 401 went out, Node would otherwise read and drop the body for as long as it trickles.
  await waitFor(() => request.seen.closed, {
    timeoutMs: 12_000,
    message: 'the connection closed by the server after the 401',
  });
});

for (const [refusal, head, status] of [
  ['a type it does not take', 'Content-Type: text/plain\r\nContent-Length: 100000\r\n\r\nhel', 415],
  ['over 1 MiB', 'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 2000000\r\n\r\na=x', 413],
] as const) {
  test(`an action link's confirming POST refusing a body (${refusal}) it has not read closes the connection (Connection: close), as every route does`, async (t) => {
    // The body is refused before the link is looked at, so any token will do.
    const request = rawRequest(`POST /a/some-token HTTP/1.1\r\nHost: x\r\n${head}`, patient);
    t.teardown(request.destroy);
    const trickle = setInterval(() => request.write('x'), 100);
    t.teardown(() => clearInterval(trickle));
    await waitFor(() => request.seen.answer.includes('\r\n\r\n'), { timeoutMs: 12_000, message: `the ${status}` });
    t.regex(request.seen.answer, new RegExp(`^HTTP/1\\.1 ${status} `));
    t.regex(request.seen.answer, /\r\nconnection: close\r\n/i);
    await waitFor(() => request.seen.closed, {
      timeoutMs: 12_000,
      message: `the connection closed by the server after the ${status}`,
    });
  });
}

test('an authenticated request whose body never completes is cut with 408 once REQUEST_TIMEOUT_SECONDS have passed', async (t) => {
  const token = app.token(app.newTenant());
  const request = rawRequest(
    `POST /api/v1/alert-rules HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"na`,
  );
  t.teardown(request.destroy);
  await waitFor(() => request.seen.closed, { timeoutMs: 5000, message: 'the connection closed by the server' });
  t.regex(request.seen.answer, /^HTTP\/1\.1 408 /);
  t.regex(request.seen.answer, /\r\ncontent-type: application\/problem\+json\r\n/i);
  t.like(JSON.parse(request.seen.answer.slice(request.seen.answer.indexOf('\r\n\r\n') + 4)), {
    status: 408,
    title: 'Request Timeout',
  });
});

test('a request Node cannot parse is a 400 problem too', async (t) => {
  const request = rawRequest('GARBAGE\r\n\r\n');
  t.teardown(request.destroy);
  await waitFor(() => request.seen.closed, { message: 'the connection closed by the server' });
  t.regex(request.seen.answer, /^HTTP\/1\.1 400 Bad Request\r\nContent-Type: application\/problem\+json/);
});

test('a server-sent event stream outlives the request timeout', async (t) => {
  const stream = connectSse(`${app.url}/api/v1/incidents/stream`, {
    authorization: `Bearer ${app.token(app.newTenant())}`,
  });
  t.teardown(() => stream.close());
  await waitFor(() => stream.comments.filter((c) => c === 'heartbeat').length >= 3, {
    timeoutMs: 6000,
    message: 'three heartbeats, over more than the 1 s request timeout',
  });
  t.is(stream.status(), 200);
});
