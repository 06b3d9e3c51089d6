/**
 * The escalation preview over HTTP on the real platform: GET for a saved policy and POST for an
 * unsaved body, the instant and the cycles they take, masked addresses and the reasons, every
 * unreachable target with its reason (table-driven), the 400s (a bad `at`, unknown parameters, a
 * body create would refuse, with create's field errors), 404 for another tenant's policy, 403
 * without `escalation:read`; and nothing appended or sent by any of it.
 */
import test from 'ava';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { randomUUID } from 'node:crypto';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';

const AT = '2026-06-01T09:00:00.000Z';
const PREVIEW = '/api/v1/escalation-policies/preview';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

async function created(caller: Caller, path: string, body: unknown): Promise<string> {
  const response = await app.request('POST', path, { caller, body });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.id;
}
const newUser = (caller: Caller, name: string, fields: Record<string, unknown> = {}) =>
  created(caller, '/users', { email: `${name}-${randomUUID()}@example.com`, name, ...fields });
const oneStage = (targets: unknown[], extra: Record<string, unknown> = {}) => ({
  name: 'preview',
  stages: [{ stage_order: 1, delay_minutes: 0, targets }],
  ...extra,
});
const preview = (caller: Caller, body: unknown, query = `?at=${AT}`) =>
  app.request('POST', `${PREVIEW}${query}`, { caller, body });

test("GET and POST: stage times from the trigger, people with masked addresses and the reason, a schedule read at each stage's time, repeats listed and described", async (t) => {
  const caller = app.newTenant();
  const ops = await created(caller, '/api/v1/groups', { name: 'Ops', permissions: {} });
  const ada = await newUser(caller, 'Ada', { group_ids: [ops], phone: '+447700900123' });
  const ben = await newUser(caller, 'Ben');
  const cy = await newUser(caller, 'Cy');
  // Ben until 10:00 on 1 June, Cy from then (daily handoffs at 10:00 UTC).
  const rota = await created(caller, '/schedules', {
    name: 'Primary',
    timezone: 'UTC',
    layers: [{ user_ids: [ben, cy], rotation_type: 'daily', start_time: '2026-05-31T10:00:00Z' }],
  });
  const chat = await created(caller, '/notification-channels', {
    name: 'ops chat',
    type: 'chat',
    config: { webhook_url: 'https://hooks.example.com/services/T000/B000/secretsecret', channel_name: '#ops' },
  });
  const hook = await created(caller, '/notification-channels', {
    name: 'ops hook',
    type: 'webhook',
    config: { url: 'https://receiver.example.com/alerts/secret-path', method: 'POST', headers: {} },
  });
  const body = {
    name: 'Warehouse on-call',
    stages: [
      {
        stage_order: 1,
        delay_minutes: 0,
        targets: [
          { type: 'group', id: ops, channels: ['email', 'sms'] },
          { type: 'schedule', id: rota, channels: ['email'] },
        ],
      },
      {
        stage_order: 2,
        delay_minutes: 90,
        targets: [
          { type: 'schedule', id: rota, channels: ['email'] },
          { type: 'channel', id: chat },
          { type: 'channel', id: hook },
        ],
      },
    ],
    repeat_interval_minutes: 30,
  };
  const policy = await created(caller, '/api/v1/escalation-policies', body);
  const head = await app.platform.eventStore.headPosition();

  const got = await app.request('GET', `/api/v1/escalation-policies/${policy}/preview?at=${AT}&cycles=2`, { caller });
  t.is(got.status, 200, JSON.stringify(got.body));
  const data = got.body.data;
  t.like(data, { policy: { id: policy, name: 'Warehouse on-call' }, at: AT, repeat_interval_minutes: 30 });
  t.deepEqual(
    data.stages.map((s: any) => [s.stage_order, s.cycle, s.fires_at, s.offset_minutes]),
    [
      [1, 0, AT, 0],
      [2, 0, '2026-06-01T10:30:00.000Z', 90],
      [1, 1, '2026-06-01T11:00:00.000Z', 120],
      [2, 1, '2026-06-01T12:30:00.000Z', 210],
    ],
  );
  t.like(data.repeat, { interval_minutes: 30, next_cycle: 2, next_cycle_at: '2026-06-01T13:00:00.000Z' });
  t.regex(data.repeat.description, /30 minutes after stage 2 fires, stage 1 fires again/);

  const [stage1, stage2] = data.stages;
  t.deepEqual(
    stage1.recipients.map((r: any) => [r.person?.name, r.medium, r.address, r.why, r.on_call]),
    [
      ['Ada', 'email', 'A***@example.com', 'member of group Ops', null],
      ['Ada', 'sms', '+44*******123', 'member of group Ops', null],
      ['Ben', 'email', 'B***@example.com', 'on call for schedule Primary via layer 0', { source: 'layer', layer: 0 }],
    ],
  );
  t.like(stage1.recipients[1], {
    delivery_target: `user:${ada} +44*******123`,
    via: { type: 'group', id: ops, name: 'Ops' },
    channel: null,
  });
  t.deepEqual(stage1.unreachable, []);
  // Stage 2 fires at 10:30: the rota has handed over to Cy by then.
  t.deepEqual(
    stage2.recipients.map((r: any) => [
      r.person?.name ?? r.channel.name,
      r.medium,
      r.address,
      r.delivery_target,
      r.why,
    ]),
    [
      [
        'Cy',
        'email',
        'C***@example.com',
        stage2.recipients[0].delivery_target,
        'on call for schedule Primary via layer 0',
      ],
      ['ops chat', 'chat', '#ops', `channel:${chat}`, 'notification channel ops chat'],
      ['ops hook', 'webhook', 'https://receiver.example.com', `channel:${hook}`, 'notification channel ops hook'],
    ],
  );
  t.like(stage2.recipients[1], { person: null, channel: { id: chat, name: 'ops chat', type: 'chat' } });
  t.false(JSON.stringify(data).includes('secret'), 'no webhook URL path or credential in the answer');

  // The unsaved body previews the same; `at` defaults to now; one cycle by default.
  const posted = await preview(caller, body, `?at=${AT}&cycles=2`);
  t.is(posted.status, 200);
  t.deepEqual(posted.body.data.stages, data.stages);
  t.deepEqual(posted.body.data.policy, { id: null, name: 'Warehouse on-call' });
  const now = await app.request('GET', `/api/v1/escalation-policies/${policy}/preview`, { caller });
  t.is(now.body.data.stages.length, 2, 'one cycle by default');
  t.true(Math.abs(Date.parse(now.body.data.at) - Date.now()) < 60_000, 'at defaults to now');

  t.is(await app.platform.eventStore.headPosition(), head, 'nothing was appended');
});

/** Each way a target can reach nobody: set-up → the target, and the `unreachable` entry expected. */
const unreachableCases: [
  string,
  (caller: Caller) => Promise<{ target: Record<string, unknown>; person?: string }>,
  { medium: string | null; reason: string },
][] = [
  [
    'a deactivated user',
    async (caller) => {
      const id = await newUser(caller, 'Gone');
      await app.request('PATCH', `/users/${id}`, { caller, body: { is_active: false } });
      return { target: { type: 'user', id, channels: ['email'] }, person: 'Gone' };
    },
    { medium: null, reason: 'the user is deactivated' },
  ],
  [
    'sms to a user without a phone',
    async (caller) => ({
      target: { type: 'user', id: await newUser(caller, 'Nophone'), channels: ['sms'] },
      person: 'Nophone',
    }),
    { medium: 'sms', reason: 'the user has no phone number' },
  ],
  [
    'chat to a user',
    async (caller) => ({
      target: { type: 'user', id: await newUser(caller, 'Chatty'), channels: ['chat'] },
      person: 'Chatty',
    }),
    { medium: 'chat', reason: 'a user has no chat address; target a chat channel instead' },
  ],
  [
    'an empty group',
    async (caller) => ({
      target: {
        type: 'group',
        id: await created(caller, '/api/v1/groups', { name: `empty-${randomUUID()}`, permissions: {} }),
        channels: ['email'],
      },
    }),
    { medium: null, reason: 'the group has no active members' },
  ],
  [
    'a group of deactivated members',
    async (caller) => {
      const group = await created(caller, '/api/v1/groups', { name: `idle-${randomUUID()}`, permissions: {} });
      const member = await newUser(caller, 'Idle', { group_ids: [group] });
      await app.request('PATCH', `/users/${member}`, { caller, body: { is_active: false } });
      return { target: { type: 'group', id: group, channels: ['email'] } };
    },
    { medium: null, reason: 'the group has no active members' },
  ],
  [
    'a schedule nobody is on yet',
    async (caller) => {
      const later = await newUser(caller, 'Later');
      const id = await created(caller, '/schedules', {
        name: 'next year',
        timezone: 'UTC',
        layers: [{ user_ids: [later], rotation_type: 'weekly', start_time: '2027-01-04T09:00:00Z' }],
      });
      return { target: { type: 'schedule', id, channels: ['email'] } };
    },
    { medium: null, reason: 'nobody is on call' },
  ],
];

for (const [title, setUp, expected] of unreachableCases) {
  test(`unreachable: ${title}`, async (t) => {
    const caller = app.newTenant();
    const { target, person } = await setUp(caller);
    const response = await preview(caller, oneStage([target]));
    t.is(response.status, 200, JSON.stringify(response.body));
    const [stage] = response.body.data.stages;
    t.deepEqual(stage.recipients, []);
    t.is(stage.unreachable.length, 1);
    t.like(stage.unreachable[0], { via: { type: target.type, id: target.id }, ...expected });
    t.is(stage.unreachable[0].person?.name, person);
  });
}

/** Targets removed after a saved policy named them (the API refuses this only for schedules and channels). */
const removedCases: [string, (caller: Caller) => Promise<string>, string, string][] = [
  [
    'group',
    async (caller) => created(caller, '/api/v1/groups', { name: `short-lived-${randomUUID()}`, permissions: {} }),
    '/api/v1/groups',
    'the group no longer exists',
  ],
  ['user', async (caller) => newUser(caller, 'Leaver'), '/users', 'the user no longer exists'],
];

for (const [type, make, collection, reason] of removedCases) {
  test(`unreachable: a ${type} removed after the policy named it`, async (t) => {
    const caller = app.newTenant();
    const id = await make(caller);
    const policy = await created(caller, '/api/v1/escalation-policies', oneStage([{ type, id, channels: ['email'] }]));
    t.is((await app.request('DELETE', `${collection}/${id}`, { caller })).status, 200);
    const response = await app.request('GET', `/api/v1/escalation-policies/${policy}/preview?at=${AT}`, { caller });
    t.is(response.status, 200);
    t.deepEqual(response.body.data.stages[0].recipients, []);
    t.deepEqual(response.body.data.stages[0].unreachable, [
      { via: { type, id, name: null }, person: null, medium: null, reason },
    ]);
  });
}

const badQueries: [string, string, string][] = [
  ['an `at` that is not a date', '?at=yesterday', '/at'],
  ['an `at` without an offset', '?at=2026-06-01T09:00:00', '/at'],
  ['an impossible date', '?at=2026-02-30T09:00:00Z', '/at'],
  ['cycles of 0', '?cycles=0', '/cycles'],
  ['too many cycles', '?cycles=6', '/cycles'],
  ['cycles that are not a number', '?cycles=two', '/cycles'],
  ['an unknown parameter', '?when=now', '/when'],
];

for (const [title, query, path] of badQueries) {
  test(`400 for ${title}, on GET and POST`, async (t) => {
    const caller = app.newTenant();
    const user = await newUser(caller, 'Ada');
    const body = oneStage([{ type: 'user', id: user, channels: ['email'] }]);
    const policy = await created(caller, '/api/v1/escalation-policies', body);
    for (const response of [
      await app.request('GET', `/api/v1/escalation-policies/${policy}/preview${query}`, { caller }),
      await preview(caller, body, query),
    ]) {
      t.is(response.status, 400);
      t.is(response.headers.get('content-type'), 'application/problem+json');
      t.deepEqual(
        response.body.errors.map((e: { path: string }) => e.path),
        [path],
      );
    }
  });
}

test('POST refuses what create refuses, with the same field errors, and creates nothing', async (t) => {
  const caller = app.newTenant();
  const user = await newUser(caller, 'Ada');
  const target = { type: 'user', id: user, channels: ['email'] };
  const bodies = [
    { name: 'x', stages: [] },
    { name: 'x', stages: [{ stage_order: 1, delay_minutes: 5, targets: [target] }] },
    { name: 'x', stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ ...target, channels: ['pigeon'] }] }] },
    oneStage([
      { type: 'channel', id: randomUUID() },
      { type: 'schedule', id: randomUUID(), channels: ['email'] },
    ]),
    oneStage([target], { urgency: 'high' }),
    [oneStage([target])],
  ];
  for (const body of bodies) {
    const previewed = await preview(caller, body);
    const create = await app.request('POST', '/api/v1/escalation-policies', { caller, body });
    t.is(previewed.status, 400, JSON.stringify(body));
    t.is(previewed.headers.get('content-type'), 'application/problem+json');
    t.deepEqual(previewed.body.errors, create.body.errors, JSON.stringify(body));
  }
  t.deepEqual((await app.request('GET', '/api/v1/escalation-policies', { caller })).body.data, []);
});

test("404 for another tenant's policy, an unknown id and a non-id; 403 without escalation:read", async (t) => {
  const owner = app.newTenant();
  const user = await newUser(owner, 'Ada');
  const policy = await created(
    owner,
    '/api/v1/escalation-policies',
    oneStage([{ type: 'user', id: user, channels: ['email'] }]),
  );
  const stranger = app.newTenant();
  for (const id of [policy, randomUUID(), 'not-an-id']) {
    const response = await app.request('GET', `/api/v1/escalation-policies/${id}/preview`, { caller: stranger });
    t.is(response.status, 404, id);
    t.is(response.headers.get('content-type'), 'application/problem+json');
  }
  // Another tenant's user in an unsaved body is unknown here, as create says.
  t.is((await preview(stranger, oneStage([{ type: 'user', id: user, channels: ['email'] }]))).status, 400);
  const nobody = { ...owner, roles: ['nobody'] };
  t.is((await app.request('GET', `/api/v1/escalation-policies/${policy}/preview`, { caller: nobody })).status, 403);
  t.is((await preview(nobody, oneStage([{ type: 'user', id: user, channels: ['email'] }]))).status, 403);
});

test('the answers are the ones /openapi.json documents', async (t) => {
  const document = (await app.request('GET', '/openapi.json')).body;
  const resolved = (schema: unknown): unknown => {
    if (Array.isArray(schema)) return schema.map(resolved);
    if (schema === null || typeof schema !== 'object') return schema;
    const ref = (schema as { $ref?: string }).$ref;
    if (ref?.startsWith('#/components/schemas/'))
      return resolved(document.components.schemas[ref.slice('#/components/schemas/'.length)]);
    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolved(value)]));
  };
  const ajv = new Ajv2020({ strict: true, validateFormats: false, allErrors: true });
  const caller = app.newTenant();
  const ada = await newUser(caller, 'Ada', { phone: '+447700900123' });
  const rota = await created(caller, '/schedules', {
    name: 'Primary',
    timezone: 'UTC',
    layers: [{ user_ids: [ada], rotation_type: 'weekly', start_time: '2026-01-05T09:00:00Z' }],
  });
  const body = oneStage(
    [
      { type: 'schedule', id: rota, channels: ['sms', 'chat'] },
      {
        type: 'group',
        id: await created(caller, '/api/v1/groups', { name: 'none', permissions: {} }),
        channels: ['email'],
      },
    ],
    { repeat_interval_minutes: 5 },
  );
  const policy = await created(caller, '/api/v1/escalation-policies', body);
  const answers: [string, string, { status: number; headers: Headers; body: unknown }][] = [
    [
      '/api/v1/escalation-policies/{id}/preview',
      'get',
      await app.request('GET', `/api/v1/escalation-policies/${policy}/preview?cycles=2`, { caller }),
    ],
    ['/api/v1/escalation-policies/preview', 'post', await preview(caller, body)],
    ['/api/v1/escalation-policies/preview', 'post', await preview(caller, { name: 'x' })],
    [
      '/api/v1/escalation-policies/{id}/preview',
      'get',
      await app.request('GET', `/api/v1/escalation-policies/${randomUUID()}/preview`, { caller }),
    ],
  ];
  t.deepEqual(
    answers.map(([, , answer]) => answer.status),
    [200, 200, 400, 404],
  );
  for (const [path, method, answer] of answers) {
    const contentType = answer.headers.get('content-type')!.split(';')[0]!;
    const schema = document.paths[path]?.[method]?.responses?.[String(answer.status)]?.content?.[contentType]?.schema;
    if (!schema) {
      t.fail(`${method} ${path} documents no ${answer.status} ${contentType}`);
      continue;
    }
    const validate = ajv.compile(resolved(schema) as object);
    t.true(validate(answer.body), `${method} ${path} ${answer.status}: ${ajv.errorsText(validate.errors)}`);
  }
});
