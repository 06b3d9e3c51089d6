/**
 * Issue 36 item 7: a GET naming a read position (`?min_position=`, `X-Min-Read-Position`) makes
 * the instance wait for its projections (up to READ_YOUR_WRITES_TIMEOUT_MS). Only a caller who may
 * read what it asks for gets that wait: authentication and authorisation come first, so an
 * anonymous or unauthorised request with a position the projections will never reach is refused at
 * once. The runner's `waitFor` is watched to tell whether a request waited at all.
 */
import test from 'ava';
import { startTestApp, type TestApp } from './support/test-app.js';

/** The highest log position: never reached. */
const FAR = 18446744073709551615n;
let app: TestApp;
const waitedFor: bigint[] = [];

test.before(async () => {
  app = await startTestApp({ env: { READ_YOUR_WRITES_TIMEOUT_MS: '300' } });
  const { runner } = app.platform;
  const wait = runner.waitFor.bind(runner);
  runner.waitFor = (position, timeoutMs) => {
    waitedFor.push(position);
    return wait(position, timeoutMs);
  };
});
test.after.always(async () => app?.close());

const farWaits = () => waitedFor.filter((position) => position === FAR).length;

test.serial(
  'an anonymous or unauthorised GET naming a far-off read position is refused (401, 403) without waiting for it',
  async (t) => {
    const owner = app.newTenant();
    const viewer = { ...owner, userId: crypto.randomUUID(), roles: ['viewer'] };
    const refusals: [string, { caller?: typeof owner; headers?: Record<string, string> }, number][] = [
      [`/api/v1/notification-channels?min_position=${FAR}`, {}, 401],
      ['/api/v1/notification-channels', { headers: { 'x-min-read-position': String(FAR) } }, 401],
      [`/api/v1/notification-channels?min_position=${FAR}`, { headers: { authorization: 'Bearer not-a-token' } }, 401],
      // The viewer reads everything but does not hold assistant:ask.
      [`/api/v1/ask/tools?min_position=${FAR}`, { caller: viewer }, 403],
      ['/api/v1/ask/tools', { caller: viewer, headers: { 'x-min-read-position': String(FAR) } }, 403],
    ];
    for (const [path, options, status] of refusals) {
      const answer = await app.request('GET', path, options);
      t.is(answer.status, status, `${path} ${JSON.stringify(options.headers ?? {})}`);
      t.is(answer.headers.get('content-type'), 'application/problem+json');
      t.is(answer.headers.get('x-read-model-pending'), null, "not the wait's answer");
    }
    t.is(farWaits(), 0, 'no refused request waited for the read position');

    // Control: the same caller, on what it may read, waits (and is told the position was not reached).
    const allowed = await app.request('GET', `/api/v1/notification-channels?min_position=${FAR}`, { caller: viewer });
    t.is(allowed.status, 200);
    t.is(allowed.headers.get('x-read-model-pending'), 'true');
    t.is(farWaits(), 1);
    // A route any valid token may read waits too.
    const me = await app.request('GET', '/api/v1/me', {
      caller: viewer,
      headers: { 'x-min-read-position': String(FAR) },
    });
    t.is(me.status, 200);
    t.is(me.headers.get('x-read-model-pending'), 'true');
    t.is(farWaits(), 2);
  },
);
