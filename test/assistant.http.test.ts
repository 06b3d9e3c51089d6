/**
 * The analytics assistant over HTTP on the real platform, its model the Messages API stand-in
 * (the real SDK talks to it through ANTHROPIC_BASE_URL). The stand-in answers each question by
 * its prompt, so the tests can run side by side.
 */
import test from 'ava';
import { embeddedTools, resultValue } from './support/assistant-fixtures.js';
import {
  apiKeyOf,
  startAnthropicStandin,
  text,
  toolResults,
  toolUse,
  type AnthropicStandin,
  type Script,
  type SeenToolResult,
} from './support/anthropic-standin.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';
import { createEmbeddedCostStore } from '../src/gateways/cost/embedded/embedded-cost-store.js';

const API_KEY = 'sk-ant-standin-do-not-leak-7f3a';
// Room for every tool at once on a loaded machine; the 504 test waits this long.
const ANSWER_TIMEOUT_MS = 8_000;
const registry = embeddedTools();
const scripts = new Map<string, Script>();
let standin: AnthropicStandin;
let app: TestApp;

test.before(async () => {
  standin = await startAnthropicStandin((request) => {
    const prompt = request.body.messages[0].content as string;
    const script = scripts.get(prompt);
    if (!script) return { content: [text(`no script for ${prompt}`)] };
    const index = standin.requests.filter((r) => r.body.messages[0].content === prompt).length - 1;
    return script({ ...request, index });
  });
  app = await startTestApp({
    env: {
      ANTHROPIC_API_KEY: API_KEY,
      ANTHROPIC_BASE_URL: standin.url,
      ASSISTANT_TIMEOUT_MS: String(ANSWER_TIMEOUT_MS),
    },
  });
});
test.after.always(async () => {
  await app?.close();
  await standin?.close();
});

const ask = (caller: Caller, body: unknown) => app.request('POST', '/ask', { caller, body });
const requestsFor = (prompt: string) => standin.requests.filter((r) => r.body.messages[0].content === prompt);

test('a new user asks "why are my queries slow?" and gets Markdown built from the tools\' results', async (t) => {
  const prompt = 'why are my queries slow?';
  scripts.set(prompt, (request) => {
    if (request.index === 0)
      return {
        content: [
          toolUse('search_runbooks', { query: 'slow queries waiting in the WLM queue' }),
          toolUse('top_cost_drivers', { limit: 3 }),
        ],
      };
    const seen = toolResults(request);
    const runbooks = JSON.parse(seen[0]!.content) as { results: { citation: string }[] };
    const drivers = JSON.parse(seen[1]!.content) as {
      drivers: { service: string; usage_type: string; cost: number }[];
    };
    return {
      content: [
        text(
          `## Why your queries are slow\n\n| driver | cost |\n|---|---|\n${drivers.drivers.map((d) => `| ${d.usage_type} | $${d.cost} |`).join('\n')}\n\nRemedies: ${runbooks.results.map((r) => r.citation).join('; ')}`,
        ),
      ],
      usage: { input_tokens: 900, output_tokens: 150 },
    };
  });
  const caller = app.newTenant();
  const response = await ask(caller, { prompt });
  t.is(response.status, 200, JSON.stringify(response.body));
  t.deepEqual(
    Object.keys(response.body).sort(),
    ['response', 'rounds', 'stop_reason', 'tools_used', 'usage'],
    "SPEC.md's top-level response, no envelope",
  );
  const data = response.body;
  t.regex(data.response, /^## Why your queries are slow\n\n\| driver \| cost \|/);
  t.regex(data.response, /Remedies: queue-waits § /);
  const drivers = await createEmbeddedCostStore().topCostDrivers(
    { tenantId: caller.tenantId, environmentId: caller.envId },
    { from: addDays(-29), to: addDays(0), limit: 3 },
  );
  for (const driver of drivers)
    t.true(
      data.response.includes(`| ${driver.usageType} | $${driver.cost} |`),
      `${driver.usageType} from the caller's own bill`,
    );
  t.deepEqual(
    data.tools_used.map((u: { name: string; ok: boolean }) => [u.name, u.ok]),
    [
      ['search_runbooks', true],
      ['top_cost_drivers', true],
    ],
  );
  t.deepEqual(data.tools_used[1].input, { limit: 3 });
  t.true(data.tools_used.every((u: { ms: number }) => typeof u.ms === 'number'));
  t.deepEqual(data.usage, { input_tokens: 1000, output_tokens: 170 });
  t.is(data.rounds, 2);
  t.is(data.stop_reason, 'end_turn');
  const [first] = requestsFor(prompt);
  t.is(apiKeyOf(first!.headers), API_KEY);
  t.is(first!.body.temperature, 0);
  t.is(first!.headers['anthropic-version'], '2023-06-01', "pinned: the SDK's own 2026-10-21 refuses any temperature");
  t.false(
    JSON.stringify(first!.body).includes(caller.tenantId) || JSON.stringify(first!.body).includes(caller.envId),
    'the model never sees the scope',
  );
  t.false(JSON.stringify(response.body).includes(API_KEY));
});

const addDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test('the tool listing shows every tool with its family and JSON input schema', async (t) => {
  const response = await app.request('GET', '/api/v1/ask/tools', { caller: app.newTenant() });
  t.is(response.status, 200);
  t.is(response.body.data.count, registry.length);
  t.deepEqual(
    response.body.data.tools.map((tool: { name: string }) => tool.name),
    registry.map((tool) => tool.name),
  );
  for (const tool of response.body.data.tools) {
    t.true(['warehouse', 'cost', 'docs'].includes(tool.family));
    t.is(tool.input_schema.type, 'object');
    t.is(tool.input_schema.additionalProperties, false);
    t.true(tool.description.length > 0);
  }
});

test('the scripted model calls every tool with its example; each answers real data its output schema describes', async (t) => {
  const prompt = 'call every tool';
  let seen: SeenToolResult[] = [];
  const listing = (await app.request('GET', '/api/v1/ask/tools', { caller: app.newTenant() })).body.data.tools as {
    name: string;
    example: unknown;
  }[];
  scripts.set(prompt, (request) => {
    if (request.index === 0)
      return {
        content: request.body.tools.map((tool: { name: string }) =>
          toolUse(tool.name, listing.find((l) => l.name === tool.name)!.example),
        ),
      };
    seen = toolResults(request);
    return { content: [text(`${seen.length} tools answered`)] };
  });
  const response = await ask(app.newTenant(), { prompt });
  t.is(response.status, 200, JSON.stringify(response.body));
  t.is(seen.length, registry.length);
  t.is(response.body.tools_used.length, registry.length);
  for (const result of seen) {
    const tool = registry.find((candidate) => candidate.name === result.name)!;
    t.false(result.is_error, `${result.name}: ${result.content}`);
    const value = resultValue(result.content);
    const parsed = tool.output.safeParse(value);
    t.true(parsed.success, `${result.name}: ${parsed.error?.message}`);
    if (tool.family !== 'warehouse')
      t.true(
        JSON.stringify(value).match(/\[\{|"forecast":[1-9]/) !== null,
        `${result.name} answers data: ${result.content.slice(0, 200)}`,
      );
  }
});

test("the scope is the token's: the same tool call reads each caller's own bill, and an environment in the input is refused", async (t) => {
  const script: Script = (request) =>
    request.index === 0
      ? {
          content: [
            toolUse('cost_by_service', { from: '2026-10-01', to: '2026-10-31' }),
            toolUse('cost_by_service', {
              from: '2026-10-01',
              to: '2026-10-31',
              env_id: '00000000-0000-4000-8000-000000000000',
            }),
          ],
        }
      : { content: [text(JSON.stringify(toolResults(request)))] };
  const answers = [];
  for (const caller of [app.newTenant(), app.newTenant()]) {
    const prompt = `what did October cost for ${caller.userId}?`;
    scripts.set(prompt, script);
    const response = await ask(caller, { prompt });
    t.is(response.status, 200);
    const [own, smuggled] = JSON.parse(response.body.response) as SeenToolResult[];
    const bill = await createEmbeddedCostStore().costByService(
      { tenantId: caller.tenantId, environmentId: caller.envId },
      { from: '2026-10-01', to: '2026-10-31' },
    );
    t.deepEqual(
      (JSON.parse(own!.content) as { services: { service: string; cost: number }[] }).services.map(
        ({ service, cost }) => ({ service, cost }),
      ),
      bill,
    );
    t.true(smuggled!.is_error);
    t.regex(smuggled!.content, /Unrecognized key: "env_id"/);
    t.like(response.body.tools_used[1], { ok: false, error: 'invalid_input' });
    answers.push(own!.content);
  }
  t.not(answers[0], answers[1]);
});

test('bad prompts are 400 and never reach the model', async (t) => {
  const caller = app.newTenant();
  const cases: [unknown, string][] = [
    [{}, '/prompt'],
    [{ prompt: '' }, '/prompt'],
    [{ prompt: '   \n ' }, '/prompt'],
    [{ prompt: 'x'.repeat(8_001) }, '/prompt'],
    [{ prompt: 42 }, '/prompt'],
    [{ prompt: 'why?', env_id: 'another' }, '/'],
  ];
  for (const [body, path] of cases) {
    const response = await ask(caller, body);
    t.is(response.status, 400, JSON.stringify(body).slice(0, 60));
    t.is(response.headers.get('content-type'), 'application/problem+json');
    t.is(response.body.errors[0].path, path);
  }
  const prompts = new Set(cases.map(([body]) => (body as { prompt?: unknown }).prompt));
  t.deepEqual(
    standin.requests.filter((r) => prompts.has(r.body.messages[0].content)),
    [],
  );
  scripts.set('x'.repeat(8_000), () => ({ content: [text('a long question')] }));
  t.is((await ask(caller, { prompt: 'x'.repeat(8_000) })).status, 200, '8,000 characters are fine');
});

test('without assistant:ask every assistant route is 403', async (t) => {
  const viewer = { ...app.newTenant(), roles: ['viewer'] };
  for (const [method, path] of [
    ['POST', '/ask'],
    ['POST', '/api/v1/ask'],
    ['GET', '/api/v1/ask/tools'],
    ['GET', '/api/v1/ask/health'],
  ] as const) {
    const response = await app.request(method, path, {
      caller: viewer,
      body: method === 'POST' ? { prompt: 'hello' } : undefined,
    });
    t.is(response.status, 403, path);
    t.regex(response.body.detail, /assistant:ask/);
  }
  const responder = { ...app.newTenant(), roles: ['responder'] };
  t.is((await app.request('GET', '/api/v1/ask/tools', { caller: responder })).status, 200, 'responders may ask');
});

test('a model that stops answering is a 504 that says what was done so far', async (t) => {
  const prompt = 'this will take too long';
  scripts.set(prompt, (request) =>
    request.index === 0 ? { content: [toolUse('cost_by_service', {})] } : { hang: true },
  );
  const response = await ask(app.newTenant(), { prompt });
  t.is(response.status, 504);
  t.is(response.headers.get('content-type'), 'application/problem+json');
  t.regex(response.body.detail, new RegExp(`within ${ANSWER_TIMEOUT_MS} ms`));
  t.deepEqual(
    response.body.tools_used.map((u: { name: string; ok: boolean }) => [u.name, u.ok]),
    [['cost_by_service', true]],
  );
  t.deepEqual(response.body.usage, { input_tokens: 100, output_tokens: 20 });
  t.is(response.body.rounds, 2);
});

// Serial (so it runs before the concurrent tests, alone): the SDK's two retries back off for about
// 1.5 s, and with every other test of the file sharing this event loop they could pass the 8 s
// answer deadline on a loaded machine, turning the 503 into a 504.
test.serial("a model provider failing with 5xx is a 503 naming it, after the SDK's retries", async (t) => {
  const prompt = 'the provider is down';
  scripts.set(prompt, () => ({ status: 500, errorType: 'api_error', message: 'Internal server error' }));
  const response = await ask(app.newTenant(), { prompt });
  t.is(response.status, 503);
  t.is(response.body.detail, 'the model provider is unavailable: the model provider answered 500 (api_error)');
  t.deepEqual(response.body.tools_used, []);
  t.is(requestsFor(prompt).length, 3, 'the call and two retries');
});

test("the assistant's health names the model, warehouse, cost store and vector store", async (t) => {
  const caller = app.newTenant();
  await waitFor(
    async () => (await app.request('GET', '/api/v1/ask/health', { caller })).body.data.vector_store.index === 'ready',
    { timeoutMs: 30_000, message: 'the runbook index' },
  );
  const response = await app.request('GET', '/api/v1/ask/health', { caller: app.newTenant() });
  t.is(response.status, 200);
  const { data } = response.body;
  t.deepEqual(data.model, {
    status: 'configured',
    model: 'claude-sonnet-4-6',
    api_version: '2023-06-01',
    temperature: 0,
  });
  t.like(data.warehouse, { mode: 'simulated', status: 'up' });
  t.deepEqual(data.cost_store, { adapter: 'embedded' });
  t.like(data.vector_store, { adapter: 'embedded', status: 'up', index: 'ready' });
  t.true(data.vector_store.chunks > 10);
  t.is(data.tools, registry.length);
  t.false(JSON.stringify(response.body).includes(API_KEY));
});

test('without ANTHROPIC_API_KEY /ask is 503 "assistant not configured", and the assistant\'s /health check stays up', async (t) => {
  const bare = await startTestApp();
  try {
    const caller = bare.newTenant();
    const asked = await bare.request('POST', '/api/v1/ask', { caller, body: { prompt: 'why are my queries slow?' } });
    t.is(asked.status, 503);
    t.regex(asked.body.detail, /^assistant not configured: set ANTHROPIC_API_KEY/);
    t.is(
      (await bare.request('POST', '/ask', { caller, body: { prompt: '' } })).status,
      400,
      'bad input is still a 400',
    );
    // /health is 503 only when a check is down (the embedded PostgreSQL of data sync may still be
    // opening here, which is not this test's business): the assistant's check is up without a key.
    const health = await bare.request('GET', '/health');
    t.like(health.body.checks.assistant, {
      status: 'up',
      model: 'not configured',
      cost_store: 'embedded',
      vector_store: { adapter: 'embedded', status: 'up' },
    });
    const own = await bare.request('GET', '/api/v1/ask/health', { caller });
    t.like(own.body.data.model, { status: 'not configured', detail: 'set ANTHROPIC_API_KEY' });
    t.is((await bare.request('GET', '/api/v1/ask/tools', { caller })).body.data.count, registry.length);
  } finally {
    await bare.close();
  }
});
