/**
 * A schemathesis-style fuzz of the platform's own /openapi.json: for every operation in the
 * document, valid requests built from its schemas (on resources created beforehand, so path ids
 * exist) and invalid ones (missing fields, wrong types, nulls, unknown fields, 100k-char strings,
 * NUL bytes and lone surrogates, 10k-deep nesting, 1e309, wrong Content-Type, malformed JSON,
 * non-UUID and unknown ids, out-of-range query values, stale and malformed If-Match, no token).
 * It fails on a 5xx, a status, content type or body the document does not allow for the
 * operation, an ETag it does not announce (or announces and never sends), a request it calls
 * invalid that is accepted, or /health not 200 afterwards. Deterministic seed, at most 40 cases
 * per operation; the findings are printed as a list.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startPlatform, type RunningPlatform } from '../src/platform.js';
import { startAnthropicStandin, text, type AnthropicStandin } from './support/anthropic-standin.js';
import { casesFor, type FuzzCase, type Operation } from './support/openapi-fuzz/cases.js';
import { documentChecker, send, type Finding } from './support/openapi-fuzz/check.js';
import { createFixtures, type Fixtures } from './support/openapi-fuzz/fixtures.js';
import { seededRandom } from './support/openapi-fuzz/schema-values.js';

const SEED = 20261124;
const BASE_URL = 'http://localhost:3000';

let platform: RunningPlatform;
let model: AnthropicStandin;
test.before(async () => {
  // A model that answers at once, so /ask's answers are judged too (not only its 503 without a model).
  model = await startAnthropicStandin(() => ({
    content: [text('The **queue** is long.')],
    stop_reason: 'end_turn',
    usage: { input_tokens: 12, output_tokens: 7 },
  }));
  // The built-in identity provider, so /oauth/token and the JWKS are served (and fuzzed) too.
  platform = await startPlatform(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ww-fuzz-')),
      LOG_LEVEL: 'silent',
      SYNC_SCHEDULER: 'off',
      ANTHROPIC_API_KEY: 'sk-fuzz',
      ANTHROPIC_BASE_URL: model.url,
    }),
  );
});
test.after.always(async () => {
  await platform?.stop();
  await model?.close();
});

/** Deletions last (and the resources others reference after those that reference them), so the other operations find their resources. */
function order(operations: Operation[]): Operation[] {
  const deleteRank = (path: string) =>
    [
      '/members/',
      '/overrides/',
      '/alert-rules/',
      '/escalation-policies/',
      '/schedules/',
      '/notification-channels/',
      '/groups/',
      '/roles/',
      '/permission-overrides',
      '/users/',
      '/sync/',
    ].findIndex((part) => path.includes(part));
  const rank = (op: Operation) => (op.method === 'delete' ? 1000 + deleteRank(op.path) : 0);
  return operations
    .map((op, index) => ({ op, index }))
    .sort((a, b) => rank(a.op) - rank(b.op) || a.index - b.index)
    .map(({ op }) => op);
}

function requestOf(
  op: Operation,
  fuzzCase: FuzzCase,
  fixtures: Fixtures,
): { url: string; headers: Record<string, string>; body?: string; summary: string } {
  const path = op.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const value = fuzzCase.pathValues?.[name];
    if (value !== undefined && fuzzCase.encoded) return value;
    return encodeURIComponent(value ?? fixtures.pathValue(op.path, name));
  });
  const query = fuzzCase.rawQuery ?? new URLSearchParams(fuzzCase.query ?? {}).toString();
  const headers: Record<string, string> = { ...fuzzCase.headers };
  if (!fuzzCase.noToken) headers.authorization ??= `Bearer ${fixtures.token}`;
  if (fuzzCase.body) headers['content-type'] = fuzzCase.body.type;
  const target = `${path}${query ? `?${query}` : ''}`;
  const bodyNote = fuzzCase.body
    ? ` body(${fuzzCase.body.type}, ${fuzzCase.body.text.length} chars): ${fuzzCase.body.text.slice(0, 120)}`
    : '';
  const headerNote = fuzzCase.headers ? ` ${JSON.stringify(fuzzCase.headers)}` : '';
  return {
    url: `${platform.url}${target}`,
    headers,
    body: fuzzCase.body?.text,
    summary: `${op.method.toUpperCase()} ${target}${headerNote}${bodyNote}`,
  };
}

test('every operation of the document answers only what the document allows', async (t) => {
  // About 30 s alone on 2 cores; room for a loaded CI machine.
  t.timeout(5 * 60_000);
  const started = Date.now();
  const document = (await (await fetch(`${platform.url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, any>>;
  } & Record<string, any>;
  const operations: Operation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method, path, operation })),
  );
  const fixtures = await createFixtures(platform, BASE_URL);
  const checker = documentChecker(document);
  const random = seededRandom(SEED);
  const findings: Finding[] = [];
  let sent = 0;
  let maxCases = 0;
  const unaccepted: string[] = [];

  for (const op of order(operations)) {
    const name = `${op.method.toUpperCase()} ${op.path}`;
    const example = fixtures.example(op.method, op.path);
    if (example) {
      const { valid, errors } = checker.requestIsValid(op, example);
      if (!valid)
        findings.push({
          operation: name,
          request: `example body ${JSON.stringify(example).slice(0, 200)}`,
          status: '-',
          reason: `the documented request schema refuses a body the server accepts: ${errors}`,
        });
    }
    const cases = casesFor(op, example, random);
    maxCases = Math.max(maxCases, cases.length);
    const etagStatuses = new Set<number>();
    let successes = 0;
    for (const fuzzCase of cases) {
      // A JSON body is invalid when the documented schema refuses it (a NUL byte in a name is a valid string);
      // a valid one may still be refused (its generated ids name nothing): only an invalid one accepted is a finding.
      if (fuzzCase.json !== undefined)
        fuzzCase.invalid = !checker.requestIsValid(op, fuzzCase.json, requestTypeOf(op)).valid;
      const request = requestOf(op, fuzzCase, fixtures);
      sent++;
      try {
        const answer = await send(request.url, op.method, request);
        if (answer.status < 300) successes++;
        if (answer.status < 300 && answer.headers.get('etag')) etagStatuses.add(answer.status);
        for (const reason of checker.judge(op, fuzzCase, answer)) {
          findings.push({
            operation: name,
            request: `[${fuzzCase.name}] ${request.summary}`,
            status: answer.status,
            reason: `${reason}${answer.status >= 400 ? ` (detail: ${String((answer.body as any)?.detail ?? (answer.body as any)?.error_description ?? '').slice(0, 160)})` : ''}`,
          });
        }
      } catch (error) {
        findings.push({
          operation: name,
          request: `[${fuzzCase.name}] ${request.summary}`,
          status: 'no answer',
          reason: String((error as Error).cause ?? error),
        });
      }
    }
    if (successes === 0) unaccepted.push(name);
    const announced = checker.announcesEtag(op);
    if (announced.length > 0 && successes > 0 && etagStatuses.size === 0)
      findings.push({
        operation: name,
        request: `all ${successes} successful cases`,
        status: announced.join(', '),
        reason: 'the document announces an ETag that no answer carried',
      });
  }

  const health = await send(`${platform.url}/health`, 'get', { headers: {} });
  if (health.status !== 200)
    findings.push({
      operation: 'GET /health',
      request: 'after the fuzz',
      status: health.status,
      reason: JSON.stringify(health.body).slice(0, 400),
    });
  t.log(
    `${operations.length} operations, ${sent} requests (at most ${maxCases} per operation), ${Math.round((Date.now() - started) / 1000)} s`,
  );
  // Not a failure: an operation no valid request reached (its example body is missing, or its resource is gone).
  if (unaccepted.length > 0) t.log(`no 2xx for ${unaccepted.length} operations: ${unaccepted.join('; ')}`);
  if (findings.length > 0) {
    t.log(
      `${findings.length} findings:\n${findings.map((f) => `- ${f.operation} → ${f.status}: ${f.reason}\n    ${f.request}`).join('\n')}`,
    );
  }
  t.true(operations.length > 120, 'every operation of the document');
  t.true(maxCases <= 40, 'bounded: at most 40 cases per operation');
  t.is(findings.length, 0, 'findings (listed in the log above)');
});

function requestTypeOf(op: Operation): string {
  const content = op.operation.requestBody?.content ?? {};
  return content['application/json'] ? 'application/json' : (Object.keys(content)[0] ?? 'application/json');
}

test('the judge reports each kind of finding it looks for', (t) => {
  const checker = documentChecker({ components: { schemas: {} } });
  const op: Operation = {
    method: 'post',
    path: '/things',
    operation: {
      requestBody: {
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { name: { type: 'string' } },
              required: ['name'],
              additionalProperties: false,
            },
          },
        },
      },
      responses: {
        201: {
          headers: {},
          content: {
            'application/json': {
              schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
            },
          },
        },
        400: { content: { 'application/problem+json': { schema: { type: 'object' } } } },
      },
    },
  };
  const answer = (status: number, contentType: string, body: unknown, etag?: string) => ({
    status,
    contentType,
    body,
    text: JSON.stringify(body),
    headers: new Headers(etag ? { etag } : {}),
  });
  const valid: FuzzCase = { name: 'valid', invalid: false };
  t.deepEqual(checker.judge(op, valid, answer(201, 'application/json', { id: 'a' })), []);
  t.deepEqual(checker.judge(op, valid, answer(400, 'application/problem+json', {})), []);
  t.regex(checker.judge(op, valid, answer(500, 'application/problem+json', {})).join(), /server error/);
  t.regex(checker.judge(op, valid, answer(409, 'application/problem+json', {})).join(), /status 409 is not documented/);
  t.regex(
    checker.judge(op, valid, answer(201, 'text/plain', 'x')).join(),
    /content type text\/plain is not documented/,
  );
  t.regex(
    checker.judge(op, valid, answer(201, 'application/json', { id: 7 })).join(),
    /does not match the documented schema/,
  );
  t.regex(
    checker.judge(op, valid, answer(201, 'application/json', { id: 'a' }, '"1"')).join(),
    /ETag the document does not announce/,
  );
  t.regex(
    checker.judge(op, { name: 'invalid', invalid: true }, answer(201, 'application/json', { id: 'a' })).join(),
    /calls invalid was accepted/,
  );
  t.false(checker.requestIsValid(op, { name: 'x', extra: 1 }).valid);
  t.true(checker.requestIsValid(op, { name: 'x' }).valid);
});
