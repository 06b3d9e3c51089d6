/**
 * Sends one fuzz case and judges the answer against the document: no 5xx, a documented status,
 * a documented content type, a body valid against the documented schema (ajv, JSON Schema
 * 2020-12), no ETag the document does not announce, and no 2xx to a request it calls invalid.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { FuzzCase, Operation } from './cases.js';
import type { Schema } from './schema-values.js';

export interface Finding {
  operation: string;
  request: string;
  status: number | string;
  reason: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  contentType: string;
  body: unknown;
  text: string;
}

const REQUEST_DEADLINE_MS = 30_000;

export function documentChecker(document: Schema) {
  // Formats are documentation here (ajv-formats is not a dependency), as in openapi-responses.http.test.ts.
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
  const compiled = new Map<object, ValidateFunction>();
  const resolved = (schema: unknown): unknown => {
    if (Array.isArray(schema)) return schema.map(resolved);
    if (schema === null || typeof schema !== 'object') return schema;
    const ref = (schema as { $ref?: string }).$ref;
    if (ref?.startsWith('#/components/schemas/'))
      return resolved(document.components.schemas[ref.slice('#/components/schemas/'.length)]);
    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolved(value)]));
  };
  const validator = (schema: object) => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(resolved(schema) as object)));
    return validate;
  };
  const headerRef = (headers: Schema | undefined, name: string) =>
    Object.keys(headers ?? {}).some((key) => key.toLowerCase() === name);

  /** Whether a JSON value is what the documented request schema allows. */
  const requestIsValid = (
    op: Operation,
    json: unknown,
    type = 'application/json',
  ): { valid: boolean; errors: string } => {
    const schema = op.operation.requestBody?.content?.[type]?.schema;
    if (!schema) return { valid: true, errors: '' };
    const validate = validator(schema);
    const valid = validate(json) as boolean;
    return { valid, errors: valid ? '' : ajv.errorsText(validate.errors) };
  };

  function judge(op: Operation, fuzzCase: FuzzCase, answer: Answer): string[] {
    const reasons: string[] = [];
    // 503 and 504 are answers of their own (a dependency unavailable or late), judged as documented or not.
    if (answer.status >= 500 && answer.status !== 503 && answer.status !== 504) reasons.push('server error');
    const responses = op.operation.responses ?? {};
    const documented = responses[String(answer.status)] ?? responses.default;
    if (!documented)
      return [
        ...reasons,
        `status ${answer.status} is not documented (documented: ${Object.keys(responses).join(', ')})`,
      ];
    if (answer.status >= 200 && answer.status < 300 && fuzzCase.invalid)
      reasons.push('a request the document calls invalid was accepted');
    if (answer.headers.get('etag') && answer.status < 300 && !headerRef(documented.headers, 'etag'))
      reasons.push('an ETag the document does not announce');
    const content = documented.content as Record<string, { schema?: Schema }> | undefined;
    if (!content) return reasons;
    if (answer.status === 304 || (answer.text === '' && op.method === 'head')) return reasons;
    const media = content[answer.contentType];
    if (!media)
      return [
        ...reasons,
        `content type ${answer.contentType || '(none)'} is not documented (documented: ${Object.keys(content).join(', ')})`,
      ];
    if (!media.schema || answer.contentType === 'text/event-stream') return reasons;
    const isJson = answer.contentType === 'application/json' || answer.contentType.endsWith('+json');
    if (!isJson) {
      if (media.schema.type === 'string') return reasons;
      return [...reasons, 'a non-JSON body documented with a non-string schema'];
    }
    const validate = validator(media.schema);
    if (!validate(answer.body))
      reasons.push(`body does not match the documented schema: ${ajv.errorsText(validate.errors).slice(0, 400)}`);
    return reasons;
  }

  return {
    judge,
    requestIsValid,
    announcesEtag: (op: Operation) =>
      Object.entries(op.operation.responses ?? {})
        .filter(([status, response]) => status.startsWith('2') && headerRef((response as Schema).headers, 'etag'))
        .map(([status]) => Number(status)),
  };
}

/** Sends the request; a stream is read up to its headers only, then dropped. */
export async function send(
  url: string,
  method: string,
  init: { headers: Record<string, string>; body?: string },
): Promise<Answer> {
  const controller = new AbortController();
  const deadline = setTimeout(
    () => controller.abort(new Error(`no answer within ${REQUEST_DEADLINE_MS} ms`)),
    REQUEST_DEADLINE_MS,
  );
  try {
    const response = await fetch(url, {
      method: method.toUpperCase(),
      headers: init.headers,
      body: init.body,
      signal: controller.signal,
      redirect: 'manual',
    });
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (contentType === 'text/event-stream') {
      controller.abort();
      return { status: response.status, headers: response.headers, contentType, body: undefined, text: '' };
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: judged as text
    }
    return { status: response.status, headers: response.headers, contentType, body, text };
  } finally {
    clearTimeout(deadline);
  }
}
