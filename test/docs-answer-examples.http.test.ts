/**
 * Every JSON example in README.md and docs/*.md that shows an HTTP answer (marked
 * ```json answer [data] METHOD /path, see test/support/answer-example.ts) is checked against a
 * real answer: the platform runs on a random port, the set-up below creates what the example
 * needs, the request is made, and the example must have the answer's structure (keys, JSON types,
 * enum values and booleans). A marked example without a set-up here fails, so none is skipped.
 *
 * The platform's clock is set to a fixed instant (a Thursday in the simulated warehouse's nightly
 * ETL window), so the simulated warehouse has slow queries, spill, tables to vacuum and alerts
 * whenever the test runs.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import {
  answerExamples,
  differences,
  documentationFiles,
  exampleSchemas,
  type AnswerExample,
} from './support/answer-example.js';
import { startAnthropicStandin, text, toolUse, type AnthropicStandin } from './support/anthropic-standin.js';
import { readReadmeScheduleExample, withIds } from './support/readme-schedule-example.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { tenantWithLongRunners } from './support/long-runner-tenant.js';

const SIMULATED_INSTANT = Date.parse('2026-03-12T02:30:00Z');
const ASK_PROMPT = 'why are my queries slow?';

let app: TestApp;
let standin: AnthropicStandin;
let openapi: Record<string, unknown>;

test.before(async () => {
  standin = await startAnthropicStandin((request) =>
    request.body.messages.length === 1
      ? { content: [toolUse('search_runbooks', { query: 'queue waits' })] }
      : {
          content: [text('## Why your queries are slow\n\nQueue waits.')],
          usage: { input_tokens: 5120, output_tokens: 610 },
        },
  );
  const offset = SIMULATED_INSTANT - Date.now();
  app = await startTestApp({
    env: { ANTHROPIC_API_KEY: 'sk-ant-standin-docs', ANTHROPIC_BASE_URL: standin.url },
    now: () => new Date(Date.now() + offset),
  });
  openapi = (await app.request('GET', '/openapi.json')).body as Record<string, unknown>;
});
test.after.always(async () => {
  await app?.close();
  await standin?.close();
});

interface Request {
  method: string;
  path: string;
  body?: unknown;
  /** Who asks, when the set-up needed another tenant than the one it was given. */
  caller?: Caller;
}
type SetUp = (caller: Caller) => Promise<Request>;

const created = async (caller: Caller, path: string, body: unknown): Promise<{ id: string }> => {
  const response = await app.request('POST', path, { caller, body });
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string };
};
const newUser = (caller: Caller, fields: Record<string, unknown> = {}) =>
  created(caller, '/users', { email: `ada-${randomUUID()}@example.com`, name: 'Ada', ...fields });

/** What each marked request needs, keyed by the mark's method and path. */
const SET_UPS: Record<string, SetUp> = {
  'GET /users/{id}': async (caller) => {
    const group = await created(caller, '/api/v1/groups', { name: `dba-${randomUUID()}`, permissions: {} });
    const user = await newUser(caller, { role_id: 'viewer', group_ids: [group.id] });
    return { method: 'GET', path: `/users/${user.id}` };
  },
  'GET /api/v1/users/{id}/permissions': async (caller) => {
    const user = await newUser(caller, { role_id: 'viewer' });
    return { method: 'GET', path: `/api/v1/users/${user.id}/permissions` };
  },
  'GET /api/v1/escalation-policies/{id}': async (caller) => {
    const user = await newUser(caller);
    const schedule = await created(caller, '/schedules', {
      name: 'primary',
      timezone: 'UTC',
      layers: [{ user_ids: [user.id], rotation_type: 'weekly', start_time: '2026-01-05T09:00:00' }],
    });
    const group = await created(caller, '/api/v1/groups', { name: `dba-${randomUUID()}`, permissions: {} });
    const channel = await created(caller, '/notification-channels', {
      name: 'ops mail',
      type: 'email',
      config: { recipients: ['ops@example.com'], subject_template: '[{{severity}}] {{rule_name}}' },
    });
    const policy = await created(caller, '/api/v1/escalation-policies', {
      name: 'Warehouse on-call',
      description: 'on-call first, then the DBA list',
      stages: [
        {
          stage_order: 1,
          delay_minutes: 0,
          targets: [{ type: 'schedule', id: schedule.id, channels: ['sms', 'email'] }],
        },
        {
          stage_order: 2,
          delay_minutes: 15,
          targets: [
            { type: 'group', id: group.id, channels: ['chat'] },
            { type: 'channel', id: channel.id },
          ],
        },
      ],
      repeat_interval_minutes: 30,
    });
    return { method: 'GET', path: `/api/v1/escalation-policies/${policy.id}` };
  },
  'GET /schedules/{id}/current-oncall?at=2026-03-29T01:00:00Z': async (caller) => {
    const worked = readReadmeScheduleExample();
    const people = Object.fromEntries(
      await Promise.all(worked.people.map(async (name) => [name, await newUser(caller, { name })] as const)),
    );
    const schedule = await created(
      caller,
      '/schedules',
      withIds(worked.body, (name) => people[name]!.id),
    );
    return { method: 'GET', path: worked.currentPath.replace('{id}', schedule.id) };
  },
  'GET /api/v1/escalation-policies/{id}/preview?at=2026-03-12T09:00:00Z': async (caller) => {
    const ada = await newUser(caller, { phone: '+447700900123' });
    const dbas = await created(caller, '/api/v1/groups', { name: `dba-${randomUUID()}`, permissions: {} });
    await newUser(caller, { name: 'Ben', group_ids: [dbas.id] });
    const nights = await created(caller, '/api/v1/groups', { name: `nights-${randomUUID()}`, permissions: {} });
    const schedule = await created(caller, '/schedules', {
      name: 'Primary',
      timezone: 'UTC',
      layers: [{ user_ids: [ada.id], rotation_type: 'weekly', start_time: '2026-01-05T09:00:00Z' }],
    });
    const chat = await created(caller, '/notification-channels', {
      name: 'ops chat',
      type: 'chat',
      config: { webhook_url: 'https://hooks.example.com/services/T0/B0/x', channel_name: '#ops' },
    });
    const policy = await created(caller, '/api/v1/escalation-policies', {
      name: 'Warehouse on-call',
      stages: [
        { stage_order: 1, delay_minutes: 0, targets: [{ type: 'schedule', id: schedule.id, channels: ['sms'] }] },
        {
          stage_order: 2,
          delay_minutes: 15,
          targets: [
            { type: 'group', id: dbas.id, channels: ['email'] },
            { type: 'channel', id: chat.id },
            { type: 'group', id: nights.id, channels: ['email'] },
          ],
        },
      ],
      repeat_interval_minutes: 30,
    });
    return { method: 'GET', path: `/api/v1/escalation-policies/${policy.id}/preview?at=2026-03-12T09:00:00Z` };
  },
  'POST /ask': async () => ({ method: 'POST', path: '/ask', body: { prompt: ASK_PROMPT } }),
  // The example shows a slow query: a tenant whose simulated warehouse has one now.
  'GET /warehouse/queries/slow': async () => ({
    method: 'GET',
    path: '/warehouse/queries/slow',
    caller: await tenantWithLongRunners(app),
  }),
  ...Object.fromEntries(
    [
      '/warehouse/cluster',
      '/warehouse/queries/spill',
      '/warehouse/tables/vacuum',
      '/warehouse/tables/alerts',
      '/warehouse/storage',
    ].map((path) => [`GET ${path}`, async () => ({ method: 'GET', path })]),
  ),
};

const examples: AnswerExample[] = documentationFiles().flatMap((file) => answerExamples(file));

test('the documentation marks its answer examples, and each has a set-up here', (t) => {
  t.true(examples.length >= 11, `${examples.length} marked examples`);
  t.deepEqual(
    examples.filter((e) => !SET_UPS[`${e.method} ${e.path}`]).map((e) => `${e.file}:${e.line} ${e.method} ${e.path}`),
    [],
  );
});

for (const example of examples) {
  test(`${example.file}:${example.line}: ${example.method} ${example.path} answers what the example shows`, async (t) => {
    const setUp = SET_UPS[`${example.method} ${example.path}`];
    if (!setUp) return t.fail('no set-up for this request');
    const caller = app.newTenant();
    const request = await setUp(caller);
    const response = await app.request(request.method, request.path, {
      caller: request.caller ?? caller,
      body: request.body,
    });
    t.true(response.status >= 200 && response.status < 300, `${response.status} ${JSON.stringify(response.body)}`);
    const schemas = exampleSchemas(openapi, example);
    t.true(schemas.length > 0, 'the API document documents this answer');
    const real = example.scope === 'data' ? response.body.data : response.body;
    t.deepEqual(differences(example.example, real, openapi, schemas), [], JSON.stringify(real, null, 1).slice(0, 3000));
  });
}
