/**
 * The Messages API version: the SDK 1.x sends 2026-10-21, which refuses `temperature`, `top_p` and
 * `top_k` (a 400 even at their defaults; https://platform.claude.com/docs/en/api/versioning and the
 * 2026-10-21 migration guide). The adapter pins ANTHROPIC_API_VERSION (2023-06-01 by default) so the
 * spec's temperature 0 is a valid request; on a version without sampling parameters it sends none
 * and /health says so.
 */
import Anthropic from '@anthropic-ai/sdk';
import test from 'ava';
import { anthropicModel } from '../src/gateways/model/anthropic-model.js';
import { ModelCallError } from '../src/gateways/model/port.js';
import { startAnthropicStandin, text, type AnthropicStandin } from './support/anthropic-standin.js';
import { startTestApp } from './support/test-app.js';

let standin: AnthropicStandin;
test.before(async () => {
  standin = await startAnthropicStandin(() => ({ content: [text('ok')] }));
});
test.after.always(async () => standin?.close());

const request = (extra: Record<string, unknown>) => ({
  model: 'claude-sonnet-4-6',
  max_tokens: 256,
  messages: [{ role: 'user' as const, content: 'hi' }],
  system: 'be brief',
  tools: [],
  ...extra,
});
const callOptions = () => ({ signal: new AbortController().signal, timeoutMs: 5_000 });

test('the SDK on its own sends anthropic-version 2026-10-21, where every sampling parameter is a 400 even at its default', async (t) => {
  const client = new Anthropic({ apiKey: 'sk-ant-standin', baseURL: standin.url, maxRetries: 0 });
  for (const field of [{ temperature: 1 }, { top_p: 0.99 }, { top_k: 5 }]) {
    const error = await t.throwsAsync(client.messages.create(request(field) as never));
    t.is((error as { status?: number }).status, 400, JSON.stringify(field));
    t.regex(error!.message, new RegExp(`${Object.keys(field)[0]}: Extra inputs are not permitted`));
  }
  const before = standin.requests.length;
  await client.messages.create(request({}) as never);
  t.is(standin.requests.at(before)!.headers['anthropic-version'], '2026-10-21');
});

test('the adapter pins anthropic-version 2023-06-01 by default, where temperature 0 is a valid request', async (t) => {
  const model = anthropicModel({ apiKey: 'sk-ant-standin', baseUrl: standin.url, maxRetries: 0 });
  const before = standin.requests.length;
  const answer = await model.createMessage(request({ temperature: 0 }), callOptions());
  t.deepEqual(answer.content, [{ type: 'text', text: 'ok' }]);
  const seen = standin.requests.at(before)!;
  t.is(seen.headers['anthropic-version'], '2023-06-01');
  t.is(seen.body.temperature, 0);
  t.regex(
    seen.headers.authorization ?? '',
    /^Bearer sk-ant-standin$/,
    'SDK 1.x authenticates with a bearer token, not x-api-key',
  );
});

test('on a configured version without sampling parameters a temperature is refused as the API refuses it', async (t) => {
  const model = anthropicModel({
    apiKey: 'sk-ant-standin',
    baseUrl: standin.url,
    maxRetries: 0,
    apiVersion: '2026-10-21',
  });
  const error = await t.throwsAsync(model.createMessage(request({ temperature: 0 }), callOptions()), {
    instanceOf: ModelCallError,
  });
  t.is((error as ModelCallError).failure, 'refused');
  t.is((error as ModelCallError).detail, 'the model provider answered 400 (invalid_request_error)');
});

test('with ANTHROPIC_API_VERSION=2026-10-21 /ask sends no temperature and answers, and /health says the temperature is not sent', async (t) => {
  const app = await startTestApp({
    env: { ANTHROPIC_API_KEY: 'sk-ant-standin', ANTHROPIC_BASE_URL: standin.url, ANTHROPIC_API_VERSION: '2026-10-21' },
  });
  try {
    const caller = app.newTenant();
    const prompt = `what is slow? ${caller.tenantId}`;
    const response = await app.request('POST', '/ask', { caller, body: { prompt } });
    t.is(response.status, 200, JSON.stringify(response.body));
    const seen = standin.requests.find((r) => r.body.messages[0].content === prompt)!;
    t.is(seen.headers['anthropic-version'], '2026-10-21');
    t.false('temperature' in seen.body);
    const own = (await app.request('GET', '/api/v1/ask/health', { caller })).body.data.model;
    t.like(own, { status: 'configured', api_version: '2026-10-21', temperature: null });
    t.regex(own.temperature_detail, /^anthropic-version 2026-10-21 has no temperature \(removed in 2026-10-21\)/);
    const health = (await app.request('GET', '/health')).body.checks.assistant;
    t.like(health, { model: 'configured', model_api_version: '2026-10-21', temperature: null });
    t.is(health.temperature_detail, own.temperature_detail);
  } finally {
    await app.close();
  }
});
