/**
 * The requests the fuzzer sends to one operation of the document: valid ones built from its
 * schemas (and from an example body that the resources created beforehand make acceptable), and
 * invalid ones of each kind the issue lists. At most MAX_CASES per operation.
 */
import { randomUUID } from 'node:crypto';
import { deeplyNested, propertyOfType, validValue, wrongType, type Random, type Schema } from './schema-values.js';

export const MAX_CASES = 40;
const MAX_BODY_BYTES = 1024 * 1024;

export interface FuzzCase {
  name: string;
  /** Path parameter values by name (default: the resource the fuzzer created); `encoded`: sent as they are. */
  pathValues?: Record<string, string>;
  encoded?: boolean;
  query?: Record<string, string>;
  /** A query string sent as it is (percent-encoding included). */
  rawQuery?: string;
  headers?: Record<string, string>;
  /** Raw body text and its content type. */
  body?: { text: string; type: string };
  /** The body's JSON value, to check against the documented request schema. */
  json?: unknown;
  noToken?: boolean;
  /** The document calls this request invalid: a 2xx to it is a finding. */
  invalid: boolean;
}

export interface Operation {
  method: string;
  path: string;
  operation: Schema;
}

const jsonBody = (value: unknown) => ({ text: JSON.stringify(value), type: 'application/json' });

/** The request body's schema and media type (JSON preferred). */
export function requestBody(operation: Schema): { schema: Schema; type: string; required: boolean } | undefined {
  const content = operation.requestBody?.content;
  if (!content) return undefined;
  const type = content['application/json'] ? 'application/json' : Object.keys(content)[0]!;
  return { schema: content[type].schema, type, required: operation.requestBody.required === true };
}

function bodyCases(schema: Schema, example: Record<string, unknown>, random: Random): FuzzCase[] {
  const properties = Object.keys(schema.properties ?? {});
  const required: string[] = schema.required ?? [];
  const withField = (name: string, value: unknown) => ({ ...example, [name]: value });
  const cases: FuzzCase[] = [];
  const add = (name: string, json: unknown) => cases.push({ name, body: jsonBody(json), json, invalid: true });
  for (const name of required.slice(0, 3)) {
    const { [name]: _left, ...rest } = example;
    add(`missing required ${name}`, rest);
  }
  for (const name of properties.slice(0, 4)) {
    const wrong = wrongType(schema.properties[name]);
    if (typeof wrong !== 'symbol') add(`wrong type for ${name}`, withField(name, wrong));
  }
  for (const name of properties.filter((name) => !(schema.properties[name].type ?? []).includes?.('null')).slice(0, 2))
    add(`null ${name}`, withField(name, null));
  add('empty object', {});
  add('unknown field', withField(`unknown_${random.int(0, 999)}`, 'surprise'));
  const text = propertyOfType(schema, ['string']) ?? properties[0] ?? 'field';
  add(`100k-char ${text}`, withField(text, 'x'.repeat(100_000)));
  add(`NUL byte in ${text}`, withField(text, `before\u0000after`));
  add(`lone surrogate in ${text}`, withField(text, `before\ud800after`));
  const marker = '"__FUZZ_RAW__"';
  const raw = (name: string, field: string, replacement: string) =>
    cases.push({
      name,
      body: {
        text: JSON.stringify(withField(field, '__FUZZ_RAW__')).replace(marker, replacement),
        type: 'application/json',
      },
      invalid: true,
    });
  raw(`10k-deep nesting in ${text}`, text, deeplyNested(10_000));
  raw(
    `1e309 in ${propertyOfType(schema, ['number', 'integer']) ?? text}`,
    propertyOfType(schema, ['number', 'integer']) ?? text,
    '1e309',
  );
  cases.push({
    name: 'wrong Content-Type',
    body: { text: JSON.stringify(example), type: 'text/plain' },
    invalid: true,
  });
  cases.push({
    name: 'malformed JSON',
    body: { text: '{"name": "unterminated', type: 'application/json' },
    invalid: true,
  });
  cases.push({ name: 'array body', body: jsonBody([example]), invalid: true });
  cases.push({
    name: 'body over 1 MiB',
    body: { text: JSON.stringify({ padding: 'x'.repeat(MAX_BODY_BYTES + 10) }), type: 'application/json' },
    invalid: true,
  });
  return cases;
}

/** What breaks a query parameter's schema: below its minimum, above its maximum, not in its enum, not its format. */
function invalidQueryValues(schema: Schema): string[] {
  const values: string[] = [];
  if (schema.minimum !== undefined) values.push(String(schema.minimum - 1));
  if (schema.maximum !== undefined) values.push(String(schema.maximum + 1_000_000));
  if (schema.type === 'integer' || schema.type === 'number') values.push('1e309', 'abc');
  if (schema.enum) values.push('not-a-member');
  if (schema.format === 'date-time' || schema.pattern) values.push('yesterday');
  return values.slice(0, 2);
}

export function casesFor(op: Operation, example: Record<string, unknown> | undefined, random: Random): FuzzCase[] {
  const { method, operation } = op;
  const parameters: Schema[] = operation.parameters ?? [];
  const pathNames = parameters.filter((p) => p.in === 'path').map((p) => p.name as string);
  const queries = parameters.filter((p) => p.in === 'query');
  const ifMatch = parameters.some((p) => p.$ref === '#/components/parameters/IfMatch');
  const body = requestBody(operation);
  const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
  const cases: FuzzCase[] = [];

  // Invalid first: a valid DELETE would leave the later cases nothing to break.
  if (!isPublic) {
    cases.push({ name: 'no token', noToken: true, invalid: true });
    cases.push({ name: 'malformed token', headers: { authorization: 'Bearer not.a.jwt' }, invalid: true });
  }
  for (const name of pathNames) {
    cases.push({ name: `non-UUID ${name}`, pathValues: { [name]: 'not-a-uuid' }, invalid: true });
    cases.push({ name: `unknown ${name}`, pathValues: { [name]: randomUUID() }, invalid: true });
    cases.push({ name: `NUL byte in ${name}`, pathValues: { [name]: 'a%00b' }, encoded: true, invalid: true });
    cases.push({
      name: `invalid UTF-8 in ${name}`,
      pathValues: { [name]: '%ED%A0%80%FF' },
      encoded: true,
      invalid: true,
    });
  }
  if (ifMatch) {
    cases.push({
      name: 'stale If-Match',
      headers: { 'if-match': '"999999"' },
      invalid: true,
      ...(body && example ? { body: jsonBody(example), json: example } : {}),
    });
    cases.push({
      name: 'malformed If-Match',
      headers: { 'if-match': 'garbage' },
      invalid: true,
      ...(body && example ? { body: jsonBody(example), json: example } : {}),
    });
  }
  for (const parameter of queries) {
    for (const value of invalidQueryValues(parameter.schema ?? {}))
      cases.push({ name: `query ${parameter.name}=${value}`, query: { [parameter.name]: value }, invalid: true });
  }
  if (queries.length > 0) {
    cases.push({ name: 'unknown query parameter', query: { fuzz_unknown: '1' }, invalid: true });
    const first = queries[0]!.name as string;
    // Not invalid for every parameter (a ticket is any string, and ignored beside a token): judged for crashes and statuses only.
    cases.push({
      name: `broken percent-encoding in ${first}`,
      rawQuery: `${first}=%E0%A4%A&${first}=%`,
      invalid: false,
    });
    // Long, but within Node's 16 KiB for the request line and headers (beyond it Node answers 431 itself, as the document's description says).
    cases.push({ name: `8k-char ${first}`, query: { [first]: 'x'.repeat(8_000) }, invalid: false });
  }
  if (body && body.schema.type === 'object')
    cases.push(
      ...bodyCases(body.schema, example ?? (validValue(body.schema, random) as Record<string, unknown>), random),
    );
  if (method === 'delete') {
    cases.push({
      name: 'DELETE with malformed JSON body',
      body: { text: '{oops', type: 'application/json' },
      invalid: true,
    });
    cases.push({
      name: 'DELETE with a body over 1 MiB',
      body: { text: JSON.stringify({ padding: 'x'.repeat(MAX_BODY_BYTES + 10) }), type: 'application/json' },
      invalid: true,
    });
  }

  // Valid: generated from the schemas, then the example (last: it may delete or change the resource).
  const valid: FuzzCase[] = [];
  for (let i = 0; i < 3; i++) {
    // The first without parameters; a cursor is opaque (only a page's next_cursor is valid), a ticket one-use.
    const query = Object.fromEntries(
      queries
        .filter((p) => i > 0 && !['cursor', 'ticket', 'last_event_id'].includes(p.name) && random.chance(0.4))
        .map((p) => [p.name, String(validValue(p.schema ?? { type: 'string' }, random))]),
    );
    if (body) {
      const json = validValue(body.schema, random);
      valid.push({
        name: `generated body #${i + 1}`,
        query,
        body:
          body.type === 'application/json'
            ? jsonBody(json)
            : { text: new URLSearchParams(json as Record<string, string>).toString(), type: body.type },
        json,
        invalid: false,
      });
    } else if (queries.length > 0 || i === 0) {
      valid.push({ name: `generated query #${i + 1}`, query, invalid: false });
    }
  }
  if (body && example) valid.push({ name: 'example body', body: jsonBody(example), json: example, invalid: false });
  else if (!body && method !== 'get') valid.push({ name: 'no body', invalid: false });
  // Room for the valid ones within the bound.
  return [...cases.slice(0, MAX_CASES - valid.length), ...valid];
}
