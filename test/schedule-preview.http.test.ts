/**
 * POST /schedules/preview on the real app: an unsaved schedule renders exactly as the same schedule
 * does once saved (the range query), a body a create would refuse is refused the same way, another
 * tenant's users are not resolvable, it needs schedules:read only, and nothing is saved.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

const newUser = async (caller: Caller, name: string) =>
  (await app.request('POST', '/users', { caller, body: { email: `${name}-${randomUUID()}@example.com`, name } })).body
    .data as { id: string; email: string; name: string };

const RANGE = 'since=2026-03-28T00:00:00Z&until=2026-04-11T00:00:00Z';

async function twoLayersAndOverrides(caller: Caller) {
  const [alice, bob, carol, erin] = [
    await newUser(caller, 'alice'),
    await newUser(caller, 'bob'),
    await newUser(caller, 'carol'),
    await newUser(caller, 'erin'),
  ];
  return {
    alice,
    bob,
    carol,
    erin,
    body: {
      name: 'Warehouse primary',
      timezone: 'Europe/Berlin',
      layers: [
        { user_ids: [alice.id, bob.id], rotation_type: 'weekly', start_time: '2026-03-16T09:00:00' },
        { user_ids: [carol.id], rotation_type: 'daily', start_time: '2026-04-06T09:00:00' },
      ],
      overrides: [
        { user_id: erin.id, start: '2026-03-28T20:00:00', end: '2026-03-29T08:00:00', reason: 'bob is travelling' },
        { user_id: alice.id, start: '2026-04-01T12:00:00Z', end: '2026-04-01T18:00:00Z', reason: null },
      ],
    },
  };
}

test('the preview of a body is what the range query answers once the body is saved, and saves nothing', async (t) => {
  const caller = app.newTenant();
  const { body, erin, alice } = await twoLayersAndOverrides(caller);

  const preview = await app.request('POST', `/api/v1/schedules/preview?${RANGE}`, { caller, body });
  t.is(preview.status, 200, JSON.stringify(preview.body));
  t.deepEqual((await app.request('GET', '/schedules', { caller })).body.data, [], 'nothing saved');

  const created = await app.request('POST', '/schedules', { caller, body });
  t.is(created.status, 201);
  const saved = created.body.data as { id: string; overrides: { id: string }[] };
  const range = await app.request('GET', `/api/v1/schedules/${saved.id}/oncall?${RANGE}`, { caller });
  t.is(range.status, 200);

  // A saved override is named by its id; in the preview, by its index in the body.
  const byIndex = range.body.data.segments.map(
    ({ override_id: id, ...segment }: { override_id?: string; source: string }) =>
      segment.source === 'override' ? { ...segment, override: saved.overrides.findIndex((o) => o.id === id) } : segment,
  );
  const { schedule_id: _id, ...rangeAnswer } = range.body.data;
  t.deepEqual(preview.body.data, { ...rangeAnswer, segments: byIndex });
  t.true(preview.body.data.segments.length >= 5, 'several stretches in two weeks');
  const overrides = preview.body.data.segments.filter((s: { source: string }) => s.source === 'override');
  t.deepEqual(
    overrides.map((s: { user_id: string; override: number }) => [s.user_id, s.override]),
    [
      [erin.id, 0],
      [alice.id, 1],
    ],
  );
  t.is(overrides[0].start, '2026-03-28T20:00:00+01:00', "read in the schedule's zone");
  t.is(overrides[0].end, '2026-03-29T08:00:00+02:00', 'across the spring-forward');
});

test('without since and until the preview covers a week from now', async (t) => {
  const caller = app.newTenant();
  const alice = await newUser(caller, 'alice');
  const body = {
    name: 's',
    timezone: 'UTC',
    layers: [{ user_ids: [alice.id], rotation_type: 'daily', start_time: '2020-01-01T00:00:00Z' }],
  };
  const before = Date.now();
  const preview = await app.request('POST', '/schedules/preview', { caller, body });
  t.is(preview.status, 200);
  const since = Date.parse(preview.body.data.since);
  t.true(since >= Math.floor(before / 1000) * 1000 && since <= Date.now());
  t.is(Date.parse(preview.body.data.until) - since, 7 * 86_400_000);
  t.deepEqual(
    preview.body.data.segments.map((s: { name: string; source: string; layer: number }) => [s.name, s.source, s.layer]),
    [['alice', 'layer', 0]],
  );
});

test('a body a create refuses is a 400 problem with the same field errors; a bad range is a 400 too', async (t) => {
  const caller = app.newTenant();
  const alice = await newUser(caller, 'alice');
  const layer = { user_ids: [alice.id], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' };
  const cases: [string, unknown, string[]][] = [
    ['an unknown zone', { name: 's', timezone: 'Mars/Olympus', layers: [layer] }, ['/timezone']],
    ['an empty layer', { name: 's', timezone: 'UTC', layers: [{ ...layer, user_ids: [] }] }, ['/layers/0/user_ids']],
    [
      'an override ending before it starts',
      {
        name: 's',
        timezone: 'UTC',
        layers: [layer],
        overrides: [{ user_id: alice.id, start: '2026-01-02T00:00:00Z', end: '2026-01-01T00:00:00Z' }],
      },
      ['/overrides/0/end'],
    ],
    ['an unknown field', { name: 's', timezone: 'UTC', layers: [layer], colour: 'red' }, ['/']],
  ];
  for (const [title, body, paths] of cases) {
    const preview = await app.request('POST', '/api/v1/schedules/preview', { caller, body });
    const create = await app.request('POST', '/api/v1/schedules', { caller, body });
    t.is(preview.status, 400, title);
    t.is(preview.headers.get('content-type'), 'application/problem+json', title);
    t.deepEqual(preview.body.errors.map((e: { path: string }) => e.path).sort(), [...paths].sort(), title);
    t.deepEqual(preview.body.errors, create.body.errors, `${title}: the same errors as a create`);
  }
  const body = { name: 's', timezone: 'UTC', layers: [layer] };
  const long = await app.request(
    'POST',
    '/api/v1/schedules/preview?since=2026-01-01T00:00:00Z&until=2026-04-02T00:00:01Z',
    { caller, body },
  );
  t.is(long.status, 400);
  t.deepEqual(
    long.body.errors.map((e: { path: string }) => e.path),
    ['/until'],
  );
  const unknown = await app.request('POST', '/api/v1/schedules/preview?days=14', { caller, body });
  t.is(unknown.status, 400);
  t.deepEqual(
    unknown.body.errors.map((e: { path: string }) => e.path),
    ['/days'],
  );
});

test("another tenant's users are not resolvable in a preview", async (t) => {
  const owner = app.newTenant();
  const intruder = app.newTenant();
  const alice = await newUser(owner, 'alice');
  const mine = await newUser(intruder, 'mallory');
  const preview = await app.request('POST', '/api/v1/schedules/preview', {
    caller: intruder,
    body: {
      name: 's',
      timezone: 'UTC',
      layers: [{ user_ids: [mine.id, alice.id], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' }],
    },
  });
  t.is(preview.status, 400);
  t.is(preview.headers.get('content-type'), 'application/problem+json');
  t.deepEqual(preview.body.errors, [{ path: '/layers/0/user_ids/1', message: `no user ${alice.id} in this tenant` }]);
  t.false(JSON.stringify(preview.body).includes('alice'), "nothing of the other tenant's user is shown");
});

test('a preview needs schedules:read, not schedules:write', async (t) => {
  const owner = app.newTenant();
  const alice = await newUser(owner, 'alice');
  const body = {
    name: 's',
    timezone: 'UTC',
    layers: [{ user_ids: [alice.id], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' }],
  };
  const viewer = { ...owner, userId: randomUUID(), roles: ['viewer'] };
  t.is((await app.request('POST', '/schedules', { caller: viewer, body })).status, 403, 'a viewer cannot save');
  const preview = await app.request('POST', '/schedules/preview', { caller: viewer, body });
  t.is(preview.status, 200, 'but can preview');
  const nobody = { ...owner, userId: randomUUID(), roles: [] as string[], permissions: [] as string[] };
  t.is((await app.request('POST', '/schedules/preview', { caller: nobody, body })).status, 403);
  t.is((await app.request('POST', '/schedules/preview', { body })).status, 401);
});
