/**
 * The JSON examples of the documentation that show an HTTP answer, and the structural comparison
 * of such an example with a real answer (test/docs-answer-examples.http.test.ts).
 *
 * An example is marked in its fence's info string with the request it answers:
 *
 *     ```json answer GET /api/v1/escalation-policies/{id}     the example is the whole body
 *     ```json answer data GET /warehouse/cluster              the example is the body's `data`
 *
 * Unmarked JSON blocks (request bodies, configuration files) are not answers and are not checked.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface AnswerExample {
  /** The document, from the repository root. */
  file: string;
  line: number;
  /** `answer`: the whole body; `data`: the body's `data`. */
  scope: 'answer' | 'data';
  method: string;
  /** The path as the mark writes it, `{id}` placeholders and query included. */
  path: string;
  example: unknown;
}

const MARK = /^```json answer( data)? (GET|POST|PUT|PATCH|DELETE) (\S+)\n([\s\S]*?)\n```$/gm;

/** README.md and every docs/*.md, as paths from the repository root. */
export function documentationFiles(): string[] {
  const docs = readdirSync(new URL('../../docs/', import.meta.url))
    .filter((name) => name.endsWith('.md'))
    .sort();
  return ['README.md', ...docs.map((name) => `docs/${name}`)];
}

export function answerExamples(
  file: string,
  text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'),
): AnswerExample[] {
  return [...text.matchAll(MARK)].map((m) => {
    const line = text.slice(0, m.index).split('\n').length;
    let example: unknown;
    try {
      example = JSON.parse(m[4]!);
    } catch (error) {
      throw new Error(`${file}:${line}: the example is not JSON: ${(error as Error).message}`);
    }
    return { file, line, scope: m[1] ? 'data' : 'answer', method: m[2]!, path: m[3]!, example };
  });
}

type Schema = Record<string, unknown>;

/** The schemas a value at this place may follow: $refs followed, anyOf/oneOf/allOf flattened. */
function branches(document: Schema, schemas: readonly unknown[]): Schema[] {
  const out: Schema[] = [];
  const visit = (schema: unknown, depth: number) => {
    if (schema === null || typeof schema !== 'object' || depth > 20) return;
    const s = schema as Schema;
    if (typeof s.$ref === 'string' && s.$ref.startsWith('#/')) {
      visit(
        s.$ref
          .slice(2)
          .split('/')
          .reduce<unknown>((node, key) => (node as Schema | undefined)?.[key], document),
        depth + 1,
      );
      return;
    }
    for (const key of ['anyOf', 'oneOf', 'allOf'])
      if (Array.isArray(s[key])) for (const branch of s[key] as unknown[]) visit(branch, depth + 1);
    out.push(s);
  };
  for (const schema of schemas) visit(schema, 0);
  return out;
}

function childSchemas(document: Schema, schemas: readonly Schema[], key: string | number): Schema[] {
  const children: unknown[] = [];
  for (const s of branches(document, schemas)) {
    if (typeof key === 'number') {
      if (s.items !== undefined) children.push(s.items);
    } else {
      const properties = s.properties as Schema | undefined;
      if (properties?.[key] !== undefined) children.push(properties[key]);
      else if (typeof s.additionalProperties === 'object') children.push(s.additionalProperties);
    }
  }
  return branches(document, children);
}

/** The values the schema allows here when it lists them (enum, const), else undefined. */
function enumerated(schemas: readonly Schema[]): unknown[] | undefined {
  const strings = schemas.filter((s) => s.type !== 'null' && !('const' in s && s.const === null));
  if (strings.length === 0 || !strings.every((s) => Array.isArray(s.enum) || 'const' in s)) return undefined;
  return [...new Set(strings.flatMap((s) => (Array.isArray(s.enum) ? (s.enum as unknown[]) : [s.const])))];
}

/**
 * A map (a record keyed by data, such as permission names): the example shows some of its keys. Also
 * an object that lists every key of such a record, each with the one same schema (the effective
 * permissions name every permission).
 */
const isMap = (schemas: readonly Schema[]) =>
  schemas.some(
    (s) =>
      (s.properties === undefined && (typeof s.additionalProperties === 'object' || s.propertyNames !== undefined)) ||
      (s.properties !== undefined && isUniformRecord(Object.values(s.properties as Record<string, unknown>))),
  );

const isUniformRecord = (values: readonly unknown[]) =>
  values.length >= 8 && values.every((value) => JSON.stringify(value) === JSON.stringify(values[0]));

/** `"…"`, `"<uuid>"`, `"<ISO 8601>"`, `"## Why…\n\n…"`: a value the example does not state. */
const isPlaceholder = (value: string) => value.includes('…') || /^<[^>]+>$/.test(value);

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * Where the example and the real answer differ in structure: the same keys at every level (a map
 * may show some of its keys), the same JSON types, and the same value where the example states a
 * boolean, a null, or a value of a documented enum. `"a | b"` means one of them; placeholders and
 * other strings and numbers may differ. An array element of the example must match an element of
 * the answer (the one at its index first).
 */
export function differences(
  example: unknown,
  real: unknown,
  document: Schema,
  schemas: readonly Schema[],
  path = '',
): string[] {
  const here = path || '/';
  if (typeof example === 'string') {
    if (typeof real !== 'string')
      return [`${here}: the example has a string, the answer ${typeOf(real)} ${JSON.stringify(real)}`];
    if (isPlaceholder(example)) return [];
    if (example.includes(' | ')) {
      const allowed = example.split(' | ');
      return allowed.includes(real)
        ? []
        : [`${here}: the example allows ${allowed.join(', ')}, the answer has ${JSON.stringify(real)}`];
    }
    const values = enumerated(branches(document, schemas));
    if (values === undefined) return [];
    if (!values.includes(example))
      return [
        `${here}: the example's ${JSON.stringify(example)} is none of the documented values ${values.join(', ')}`,
      ];
    return real === example
      ? []
      : [`${here}: the example has ${JSON.stringify(example)}, the answer ${JSON.stringify(real)}`];
  }
  if (typeOf(example) !== typeOf(real))
    return [
      `${here}: the example has ${typeOf(example)} ${JSON.stringify(example)}, the answer ${typeOf(real)} ${JSON.stringify(real)?.slice(0, 200)}`,
    ];
  if (typeof example === 'boolean')
    return example === real ? [] : [`${here}: the example has ${example}, the answer ${String(real)}`];
  if (Array.isArray(example)) {
    const answer = real as unknown[];
    if (example.length > 0 && answer.length === 0)
      return [`${here}: the example shows elements, the answer's array is empty (the set-up must produce one)`];
    const itemSchemas = childSchemas(document, schemas, 0);
    return example.flatMap((element, index) => {
      const first = Math.min(index, answer.length - 1);
      const order = [first, ...answer.keys()].filter((i, at, all) => all.indexOf(i) === at);
      const tries = order.map((i) => differences(element, answer[i], document, itemSchemas, `${path}/${i}`));
      return tries.some((found) => found.length === 0) ? [] : tries[0]!;
    });
  }
  if (typeof example === 'object' && example !== null) {
    const answer = real as Record<string, unknown>;
    const found: string[] = [];
    const exampleKeys = Object.keys(example);
    const missingInAnswer = exampleKeys.filter((key) => !(key in answer));
    if (missingInAnswer.length > 0) found.push(`${here}: the answer has no ${missingInAnswer.join(', ')}`);
    if (!isMap(branches(document, schemas))) {
      const missingInExample = Object.keys(answer).filter((key) => !exampleKeys.includes(key));
      if (missingInExample.length > 0) found.push(`${here}: the example lacks ${missingInExample.join(', ')}`);
    }
    for (const key of exampleKeys.filter((k) => k in answer)) {
      found.push(
        ...differences(
          (example as Record<string, unknown>)[key],
          answer[key],
          document,
          childSchemas(document, schemas, key),
          `${path}/${key}`,
        ),
      );
    }
    return found;
  }
  return [];
}

/** The documented schemas of what the example shows: the 2xx JSON answer of the operation the mark names, or its `data`. */
export function exampleSchemas(document: Schema, example: AnswerExample): Schema[] {
  const schema = answerSchema(document, example.method, example.path);
  if (schema === undefined) return [];
  return example.scope === 'data' ? childSchemas(document, [schema], 'data') : branches(document, [schema]);
}

function answerSchema(document: Schema, method: string, markedPath: string): Schema | undefined {
  const path = markedPath.split('?')[0]!;
  const paths = document.paths as Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>
  >;
  const operation = (paths[path] ?? paths[`/api/v1${path}`])?.[method.toLowerCase()];
  const success = Object.entries(operation?.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
  return success?.content?.['application/json']?.schema;
}
