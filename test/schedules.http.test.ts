import test from 'ava';
import { randomUUID } from 'node:crypto';
import { isOmitted, readReadmeScheduleExample, withIds } from './support/readme-schedule-example.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

const newUser = async (caller: Caller, name: string) =>
  (await app.request('POST', '/users', { caller, body: { email: `${name}-${randomUUID()}@example.com`, name } })).body
    .data as { id: string; email: string; name: string };

/**
 * The worked example of the README ("On-call schedules"): Europe/Berlin around the spring-forward
 * of 2026-03-29, with `"<name>"` standing for the ids of users of that name. The first test checks
 * the README shows exactly this body and these answers.
 */
const BERLIN_EXAMPLE = {
  name: 'Warehouse primary',
  timezone: 'Europe/Berlin',
  layers: [
    { user_ids: ['<alice>', '<bob>'], rotation_type: 'weekly', start_time: '2026-03-16T09:00:00' },
    { user_ids: ['<carol>', '<dave>'], rotation_type: 'daily', start_time: '2026-03-30T09:00:00' },
  ],
  overrides: [
    { user_id: '<erin>', start: '2026-03-28T20:00:00', end: '2026-03-29T08:00:00', reason: 'bob is travelling' },
  ],
};
const BERLIN_RANGE_PATH = '/api/v1/schedules/{id}/oncall?since=2026-03-28T00:00:00Z&until=2026-03-31T00:00:00Z';
const BERLIN_RANGE = [
  { name: 'bob', start: '2026-03-28T01:00:00+01:00', end: '2026-03-28T20:00:00+01:00', source: 'layer', layer: 0 },
  { name: 'erin', start: '2026-03-28T20:00:00+01:00', end: '2026-03-29T08:00:00+02:00', source: 'override' },
  { name: 'bob', start: '2026-03-29T08:00:00+02:00', end: '2026-03-30T09:00:00+02:00', source: 'layer', layer: 0 },
  { name: 'carol', start: '2026-03-30T09:00:00+02:00', end: '2026-03-31T02:00:00+02:00', source: 'layer', layer: 1 },
];
const BERLIN_CURRENT_PATH = '/schedules/{id}/current-oncall?at=2026-03-29T01:00:00Z';

async function berlinExample(caller: Caller, body: unknown = BERLIN_EXAMPLE) {
  const [alice, bob, carol, dave, erin] = [
    await newUser(caller, 'alice'),
    await newUser(caller, 'bob'),
    await newUser(caller, 'carol'),
    await newUser(caller, 'dave'),
    await newUser(caller, 'erin'),
  ];
  const people: Record<string, { id: string }> = { alice, bob, carol, dave, erin };
  const created = await app.request('POST', '/schedules', { caller, body: withIds(body, (name) => people[name]!.id) });
  return { created, alice, bob, carol, dave, erin };
}

test('a two-layer schedule in Europe/Berlin with an override: current-oncall and the rendered range agree with the README example', async (t) => {
  // Given the README's worked example, which is the one this file pins down
  const readme = readReadmeScheduleExample();
  t.deepEqual(readme.body, BERLIN_EXAMPLE, 'the README shows the example this test runs');
  t.is(readme.rangePath, BERLIN_RANGE_PATH);
  t.deepEqual(readme.rows, BERLIN_RANGE, "the README's rendered range");
  t.is(readme.currentPath, BERLIN_CURRENT_PATH);

  // When a new user creates it through the API
  const caller = app.newTenant();
  const { created, bob, carol, erin, ...others } = await berlinExample(caller, readme.body);
  const people = { bob, carol, erin, ...others };
  t.is(created.status, 201, JSON.stringify(created.body));
  const id = created.body.data.id as string;
  t.is(created.headers.get('location'), `/schedules/${id}`);
  t.is(created.body.data.overrides.length, 1);
  const overrideId = created.body.data.overrides[0].id as string;
  t.regex(overrideId, /^[0-9a-f-]{36}$/);

  // Then current-oncall answers what the README says, the values it leaves out being the real ones
  const atNight = await app.request('GET', readme.currentPath.replace('{id}', id), { caller });
  t.is(atNight.status, 200);
  const real = { schedule_id: id, email: erin.email, override_id: overrideId } as Record<string, unknown>;
  const fill = (written: Record<string, unknown>) =>
    withIds(
      Object.fromEntries(Object.entries(written).map(([key, value]) => [key, isOmitted(value) ? real[key] : value])),
      (name) => people[name as keyof typeof people].id,
    );
  const { current_oncall: writtenCurrent, ...writtenTop } = readme.currentAnswer;
  t.deepEqual(atNight.body, { ...fill(writtenTop), current_oncall: fill(writtenCurrent) });
  t.deepEqual(atNight.body.current_oncall, {
    user_id: erin.id,
    name: 'erin',
    email: erin.email,
    on_call_since: '2026-03-28T20:00:00+01:00',
    on_call_until: '2026-03-29T08:00:00+02:00',
    source: 'override',
    override_id: overrideId,
  });
  t.is(atNight.body.schedule_id, id);

  const atNoon = await app.request('GET', `/api/v1/schedules/${id}/current-oncall?at=2026-03-29T12:00:00Z`, { caller });
  t.deepEqual(atNoon.body.current_oncall, {
    user_id: bob.id,
    name: 'bob',
    email: bob.email,
    on_call_since: '2026-03-29T08:00:00+02:00',
    on_call_until: '2026-03-30T09:00:00+02:00',
    source: 'layer',
    layer: 0,
  });

  // And the rendered range is the README's table, row for row
  const range = await app.request('GET', readme.rangePath.replace('{id}', id), { caller });
  t.is(range.status, 200);
  const segments = range.body.data.segments as Record<string, unknown>[];
  t.deepEqual(
    segments.map((s) => ({
      name: s.name,
      start: s.start,
      end: s.end,
      source: s.source,
      ...(s.layer === undefined ? {} : { layer: s.layer }),
    })),
    readme.rows,
  );
  t.deepEqual(
    segments.map((s) => s.user_id),
    readme.rows.map((row) => people[row.name as keyof typeof people].id),
  );
  t.is(segments[1]!.override_id, overrideId);
  // And every segment agrees with current-oncall at its start and just before its end.
  for (const segment of segments) {
    for (const at of [segment.start as string, new Date(Date.parse(segment.end as string) - 1000).toISOString()]) {
      const current = (
        await app.request('GET', `/schedules/${id}/current-oncall?at=${encodeURIComponent(at)}`, { caller })
      ).body.current_oncall;
      t.is(current.user_id, segment.user_id, at);
      t.is(current.source, segment.source, at);
    }
  }
});
test('create, list, read, replace and delete with ETags; PUT without overrides keeps them', async (t) => {
  const caller = app.newTenant();
  const { created, alice } = await berlinExample(caller);
  const id = created.body.data.id as string;
  t.is(created.headers.get('etag'), '"0"');
  const listed = await app.request('GET', '/schedules', { caller });
  t.deepEqual(listed.body.data, [created.body.data]);
  t.deepEqual(listed.body.page, { limit: 50, next_cursor: null });
  const read = await app.request('GET', `/schedules/${id}`, { caller });
  t.deepEqual(read.body.data, created.body.data);
  t.is(read.headers.get('etag'), '"0"');

  const replaced = await app.request('PUT', `/schedules/${id}`, {
    caller,
    headers: { 'if-match': '"0"' },
    body: {
      name: 'Renamed',
      timezone: 'UTC',
      layers: [{ user_ids: [alice.id], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' }],
    },
  });
  t.is(replaced.status, 200);
  t.like(replaced.body.data, { name: 'Renamed', timezone: 'UTC' });
  t.deepEqual(replaced.body.data.overrides, created.body.data.overrides);
  t.is(
    (
      await app.request('PUT', `/schedules/${id}`, {
        caller,
        headers: { 'if-match': '"0"' },
        body: { name: 'x', timezone: 'UTC', layers: replaced.body.data.layers },
      })
    ).status,
    409,
  );

  t.is((await app.request('DELETE', `/schedules/${id}`, { caller })).status, 200);
  t.is((await app.request('GET', `/schedules/${id}`, { caller })).status, 404);
  t.is((await app.request('GET', `/schedules/${id}/current-oncall`, { caller })).status, 404);
});

const rows = (range: { body: { data: { segments: Record<string, unknown>[] } } }) =>
  range.body.data.segments.map((s) => ({
    name: s.name,
    start: s.start,
    end: s.end,
    source: s.source,
    ...(s.layer === undefined ? {} : { layer: s.layer }),
  }));

test('PUT takes any subset of the fields (SPEC.md: "Updates layers, timezone or overrides"): {"timezone"} alone moves the schedule to the zone, keeping the rest', async (t) => {
  const caller = app.newTenant();
  // The README example, but created in UTC: its times without an offset are read in UTC until the zone changes.
  const { created, alice, carol } = await berlinExample(caller, { ...BERLIN_EXAMPLE, timezone: 'UTC' });
  const id = created.body.data.id as string;
  const rangePath = BERLIN_RANGE_PATH.replace('{id}', id);
  t.notDeepEqual(rows(await app.request('GET', rangePath, { caller })), BERLIN_RANGE);
  const moved = await app.request('PUT', `/schedules/${id}`, {
    caller,
    headers: { 'if-match': '"0"' },
    body: { timezone: 'Europe/Berlin' },
  });
  t.is(moved.status, 200, JSON.stringify(moved.body));
  t.is(moved.headers.get('etag'), '"1"');
  t.deepEqual(
    moved.body.data,
    { ...created.body.data, timezone: 'Europe/Berlin', updated_at: moved.body.data.updated_at },
    'name, layers and overrides (ids too) kept',
  );
  t.deepEqual(
    rows(await app.request('GET', rangePath, { caller })),
    BERLIN_RANGE,
    'the same rotation as the README example created in Europe/Berlin',
  );

  const layers = [{ user_ids: [alice.id], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' }];
  const relayered = await app.request('PUT', `/api/v1/schedules/${id}`, { caller, body: { layers } });
  t.is(relayered.status, 200);
  t.like(relayered.body.data, {
    name: 'Warehouse primary',
    timezone: 'Europe/Berlin',
    overrides: created.body.data.overrides,
    layers: [{ user_ids: [alice.id] }],
  });
  const whole = { name: 'Whole', timezone: 'UTC', layers: [{ ...layers[0], user_ids: [carol.id] }], overrides: [] };
  t.like(
    (await app.request('PUT', `/schedules/${id}`, { caller, body: whole })).body.data,
    { name: 'Whole', timezone: 'UTC', overrides: [] },
    'a whole body still works',
  );
});

test('PUT refuses an empty body, unknown and read-only fields, unknown users, kept times a new zone breaks, and a stale If-Match; each changes nothing', async (t) => {
  const caller = app.newTenant();
  const alice = await newUser(caller, 'alice');
  // The end has no offset: after the start in UTC, before it in Europe/Berlin.
  const body = {
    name: 's',
    timezone: 'UTC',
    layers: [{ user_ids: [alice.id], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' }],
    overrides: [{ user_id: alice.id, start: '2026-01-01T10:00:00+00:00', end: '2026-01-01T10:30:00' }],
  };
  const created = await app.request('POST', '/schedules', { caller, body });
  const id = created.body.data.id as string;
  const refusals: [string, Record<string, unknown>, string[], number?][] = [
    ['an empty body', {}, ['/']],
    ['an unknown field', { timezone: 'UTC', owner: 'x' }, ['/']],
    ['a read-only id', { id, name: 'x' }, ['/']],
    ['a read-only created_at', { created_at: '2026-01-01T00:00:00Z' }, ['/']],
    ['an unknown zone', { timezone: 'Mars/Olympus' }, ['/timezone']],
    ['an unknown user', { layers: [{ ...body.layers[0], user_ids: [randomUUID()] }] }, ['/layers/0/user_ids/0']],
    ['a zone in which a kept override ends before it starts', { timezone: 'Europe/Berlin' }, ['/overrides/0/end']],
  ];
  for (const [title, change, paths] of refusals) {
    const response = await app.request('PUT', `/schedules/${id}`, { caller, body: change });
    t.is(response.status, 400, title);
    t.is(response.headers.get('content-type'), 'application/problem+json');
    t.deepEqual(
      response.body.errors.map((e: { path: string }) => e.path),
      paths,
      title,
    );
  }
  t.regex(
    (await app.request('PUT', `/schedules/${id}`, { caller, body: {} })).body.errors[0].message,
    /at least one of name, timezone, layers, overrides/,
  );
  t.is(
    (
      await app.request('PUT', `/schedules/${id}`, {
        caller,
        body: { name: 'renamed' },
        headers: { 'if-match': '"0"' },
      })
    ).status,
    200,
  );
  const stale = await app.request('PUT', `/schedules/${id}`, {
    caller,
    body: { timezone: 'Asia/Kolkata' },
    headers: { 'if-match': '"0"' },
  });
  t.is(stale.status, 409);
  const after = await app.request('GET', `/schedules/${id}`, { caller });
  t.deepEqual(
    after.body.data,
    { ...created.body.data, name: 'renamed', updated_at: after.body.data.updated_at },
    'only the one accepted change',
  );
  t.is(after.headers.get('etag'), '"1"');
  t.is((await app.request('PUT', `/schedules/${randomUUID()}`, { caller, body: { name: 'x' } })).status, 404);
});

test('overrides are added and removed one at a time, so two editors do not overwrite each other', async (t) => {
  const caller = app.newTenant();
  const { created, dave, erin } = await berlinExample(caller);
  const id = created.body.data.id as string;
  const [first, second] = await Promise.all([
    app.request('POST', `/schedules/${id}/overrides`, {
      caller,
      body: { user_id: dave.id, start: '2026-04-01T09:00:00', end: '2026-04-01T18:00:00' },
    }),
    app.request('POST', `/api/v1/schedules/${id}/overrides`, {
      caller,
      body: { user_id: erin.id, start: '2026-04-02T09:00:00+02:00', end: '2026-04-02T18:00:00+02:00', reason: 'swap' },
    }),
  ]);
  const statuses = [first.status, second.status].sort();
  // Both were accepted, or the loser was told to retry: never silently dropped.
  t.true(
    statuses.every((s) => s === 201 || s === 409),
    String(statuses),
  );
  const after = (await app.request('GET', `/schedules/${id}`, { caller })).body.data;
  t.is(after.overrides.length, 1 + statuses.filter((s) => s === 201).length);
  const added = after.overrides.at(-1);
  const removed = await app.request('DELETE', `/schedules/${id}/overrides/${added.id}`, { caller });
  t.is(removed.status, 200);
  t.false(removed.body.data.overrides.some((o: { id: string }) => o.id === added.id));
  t.is((await app.request('DELETE', `/schedules/${id}/overrides/${added.id}`, { caller })).status, 404);
  const bad = await app.request('POST', `/schedules/${id}/overrides`, {
    caller,
    body: { user_id: erin.id, start: '2026-04-02T18:00:00', end: '2026-04-02T09:00:00' },
  });
  t.is(bad.status, 400);
  t.deepEqual(
    bad.body.errors.map((e: { path: string }) => e.path),
    ['/end'],
  );
});

test('invalid schedules are 400 listing every offending path, and nothing is created', async (t) => {
  const caller = app.newTenant();
  const alice = await newUser(caller, 'alice');
  const cases: [string, unknown, string[]][] = [
    [
      'an unknown zone',
      {
        name: 's',
        timezone: 'Mars/Olympus',
        layers: [{ user_ids: [alice.id], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' }],
      },
      ['/timezone'],
    ],
    ['no layers', { name: 's', timezone: 'UTC', layers: [] }, ['/layers']],
    [
      'a bad rotation and start',
      {
        name: 's',
        timezone: 'UTC',
        layers: [{ user_ids: [alice.id], rotation_type: 'hourly', start_time: 'tomorrow' }],
      },
      ['/layers/0/rotation_type'],
    ],
    [
      'a start that is not a date-time',
      {
        name: 's',
        timezone: 'UTC',
        layers: [{ user_ids: [alice.id], rotation_type: 'daily', start_time: '2026-02-30T00:00:00' }],
      },
      ['/layers/0/start_time'],
    ],
    [
      'an empty pool',
      {
        name: 's',
        timezone: 'UTC',
        layers: [{ user_ids: [], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' }],
      },
      ['/layers/0/user_ids'],
    ],
    [
      'an unknown user',
      {
        name: 's',
        timezone: 'UTC',
        layers: [{ user_ids: [alice.id, randomUUID()], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' }],
      },
      ['/layers/0/user_ids/1'],
    ],
    [
      'a reversed override and a long reason',
      {
        name: 's',
        timezone: 'UTC',
        layers: [{ user_ids: [alice.id], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' }],
        overrides: [
          { user_id: alice.id, start: '2026-01-02T00:00:00Z', end: '2026-01-01T00:00:00Z', reason: 'x'.repeat(501) },
        ],
      },
      ['/overrides/0/end', '/overrides/0/reason'],
    ],
  ];
  for (const [title, body, paths] of cases) {
    const response = await app.request('POST', '/schedules', { caller, body });
    t.is(response.status, 400, title);
    t.is(response.headers.get('content-type'), 'application/problem+json');
    t.deepEqual(response.body.errors.map((e: { path: string }) => e.path).sort(), [...paths].sort(), title);
  }
  t.deepEqual((await app.request('GET', '/schedules', { caller })).body.data, []);
});

test('nobody on call is 200 with current_oncall null; a deactivated user drops out of the rotation at once', async (t) => {
  const caller = app.newTenant();
  const [alice, bob] = [await newUser(caller, 'alice'), await newUser(caller, 'bob')];
  const id = (
    await app.request('POST', '/schedules', {
      caller,
      body: {
        name: 's',
        timezone: 'UTC',
        layers: [{ user_ids: [alice.id, bob.id], rotation_type: 'daily', start_time: '2026-06-01T00:00:00Z' }],
      },
    })
  ).body.data.id;
  const before = await app.request('GET', `/schedules/${id}/current-oncall?at=2026-05-01T00:00:00Z`, { caller });
  t.is(before.status, 200);
  t.is(before.body.current_oncall, null);
  const at = '2026-06-01T12:00:00Z';
  t.is(
    (await app.request('GET', `/schedules/${id}/current-oncall?at=${at}`, { caller })).body.current_oncall.user_id,
    alice.id,
  );
  t.is((await app.request('PATCH', `/users/${alice.id}`, { caller, body: { is_active: false } })).status, 200);
  t.is(
    (await app.request('GET', `/schedules/${id}/current-oncall?at=${at}`, { caller })).body.current_oncall.user_id,
    bob.id,
  );
});

test('ranges are bounded to 90 days; bad instants are 400', async (t) => {
  const caller = app.newTenant();
  const alice = await newUser(caller, 'alice');
  const id = (
    await app.request('POST', '/schedules', {
      caller,
      body: {
        name: 's',
        timezone: 'UTC',
        layers: [{ user_ids: [alice.id], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' }],
      },
    })
  ).body.data.id;
  t.is(
    (
      await app.request('GET', `/api/v1/schedules/${id}/oncall?since=2026-01-01T00:00:00Z&until=2026-04-01T00:00:00Z`, {
        caller,
      })
    ).status,
    200,
  );
  t.is(
    (
      await app.request('GET', `/api/v1/schedules/${id}/oncall?since=2026-01-01T00:00:00Z&until=2026-04-02T00:00:01Z`, {
        caller,
      })
    ).status,
    400,
  );
  t.is(
    (
      await app.request('GET', `/api/v1/schedules/${id}/oncall?since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z`, {
        caller,
      })
    ).status,
    400,
  );
  t.is(
    (await app.request('GET', `/api/v1/schedules/${id}/oncall?since=yesterday&until=2026-01-01T00:00:00Z`, { caller }))
      .status,
    400,
  );
  t.is((await app.request('GET', `/schedules/${id}/current-oncall?at=noon`, { caller })).status, 400);
});

test('a schedule an escalation policy targets cannot be deleted (409 naming the policy); policies may target only existing schedules', async (t) => {
  const caller = app.newTenant();
  const alice = await newUser(caller, 'alice');
  const id = (
    await app.request('POST', '/schedules', {
      caller,
      body: {
        name: 's',
        timezone: 'UTC',
        layers: [{ user_ids: [alice.id], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' }],
      },
    })
  ).body.data.id;
  const target = (scheduleId: string) => ({
    name: 'Page on-call',
    stages: [
      { stage_order: 1, delay_minutes: 0, targets: [{ type: 'schedule', id: scheduleId, channels: ['email'] }] },
    ],
  });
  const missing = await app.request('POST', '/api/v1/escalation-policies', { caller, body: target(randomUUID()) });
  t.is(missing.status, 400);
  const policy = await app.request('POST', '/api/v1/escalation-policies', { caller, body: target(id) });
  t.is(policy.status, 201);
  const refused = await app.request('DELETE', `/schedules/${id}`, { caller });
  t.is(refused.status, 409);
  t.deepEqual(refused.body.referenced_by, [{ id: policy.body.data.id, name: 'Page on-call' }]);
  t.is((await app.request('DELETE', `/api/v1/escalation-policies/${policy.body.data.id}`, { caller })).status, 200);
  t.is((await app.request('DELETE', `/schedules/${id}`, { caller })).status, 200);
});

test("another tenant's schedule is 404 everywhere and its users cannot be put in a schedule", async (t) => {
  const owner = app.newTenant();
  const intruder = app.newTenant();
  const { created, alice } = await berlinExample(owner);
  const id = created.body.data.id;
  for (const path of [
    `/schedules/${id}`,
    `/schedules/${id}/current-oncall`,
    `/api/v1/schedules/${id}/oncall?since=2026-03-28T00:00:00Z&until=2026-03-29T00:00:00Z`,
  ]) {
    t.is((await app.request('GET', path, { caller: intruder })).status, 404, path);
  }
  t.is((await app.request('DELETE', `/schedules/${id}`, { caller: intruder })).status, 404);
  const foreign = await app.request('POST', '/schedules', {
    caller: intruder,
    body: {
      name: 's',
      timezone: 'UTC',
      layers: [{ user_ids: [alice.id], rotation_type: 'daily', start_time: '2026-01-01T00:00:00Z' }],
    },
  });
  t.is(foreign.status, 400);
  t.deepEqual(foreign.body.errors, [{ path: '/layers/0/user_ids/0', message: `no user ${alice.id} in this tenant` }]);
});

test('reading needs schedules:read and changing needs schedules:write', async (t) => {
  const viewer = { ...app.newTenant(), roles: ['viewer'] };
  t.is((await app.request('GET', '/schedules', { caller: viewer })).status, 200);
  t.is((await app.request('POST', '/schedules', { caller: viewer, body: {} })).status, 403);
});
