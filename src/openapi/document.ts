/**
 * The OpenAPI 3.1 document: every served route (route-table.ts) with its documentation entry
 * (operation.ts, one file per area listed in operations.ts). Served at GET /openapi.json and read
 * by the reference page at /docs. A route without an entry is left out and reported in
 * `undocumented` (test/openapi.http.test.ts fails on it); an entry without a route in `unmatched`; an
 * entry that documents a query parameter its route does not accept in `inconsistencies`.
 */
import { API_PREFIX } from '../http/app.js';
import { MAX_BODY_BYTES } from '../http/body.js';
import { jsonSchemaOf, type JsonSchema } from './json-schema.js';
import type { OperationDoc, ProblemStatus } from './operation.js';
import { openApiPath, pathParameterNames, type ServedRoute } from './route-table.js';
import { pageQuery, pageSchema, problemSchema } from './shared-schemas.js';
import { TAG_DESCRIPTIONS } from './tags.js';

export interface DocumentOptions {
  routes: ServedRoute[];
  operations: readonly OperationDoc[];
  version: string;
  /** The built-in identity provider serves /oauth/token (client-credentials flow). */
  embeddedIdp: boolean;
  /** The configured public address (BASE_URL, the tokens' audience): the document's server, so a saved copy still names it. */
  baseUrl?: string;
}

const PROBLEM_TITLES: Record<ProblemStatus, string> = {
  400: 'Invalid body, query parameter or If-Match (`errors` lists each offending field with a JSON pointer)',
  401: 'Token missing or invalid (`WWW-Authenticate: Bearer` names the failed check)',
  403: 'The token lacks the permission (the detail names it)',
  404: "No such resource in the token's tenant (another tenant's resources are 404 too)",
  405: 'Method not allowed on this path',
  409: 'Conflict: stale If-Match, duplicate, referenced resource or invalid state transition',
  412: 'Precondition failed',
  413: `Body over ${MAX_BODY_BYTES} bytes`,
  415: 'Body is not JSON',
  422: 'The request is well-formed but exceeds a computed limit (the detail names the limit and the figure)',
  429: 'Too many concurrent requests of this kind',
  503: 'A dependency is unavailable (the detail says which)',
  504: 'A dependency did not answer in time (the detail says which, with what was done so far)',
};

const BODY_METHODS = new Set(['post', 'put', 'patch']);
const POSITION_SCHEMA = { type: 'string', pattern: '^[0-9]{1,20}$' };
const READ_AT_POSITION =
  "A log position from a write's `X-Read-Position`: the answer waits (at most READ_YOUR_WRITES_TIMEOUT_MS) until this instance's read models have reached it, then reads; on timeout it is answered anyway with `X-Read-Model-Pending: true`. Not a decimal position: 400.";
const DELETE_BAD_REQUEST =
  'An invalid query parameter, a malformed If-Match, or a body sent with the DELETE that is not a JSON object (a DELETE needs no body)';

function forbidden(permission: string, doc: OperationDoc): string {
  const also = (doc.conditionalPermissions ?? [])
    .map((extra) => ` (and \`${extra.permission}\` ${extra.when})`)
    .join('');
  return `The token lacks \`${permission}\`${also} (the detail names it)`;
}

const ref = (to: string) => ({ $ref: to });

function problems(route: ServedRoute, doc: OperationDoc): Record<string, unknown> {
  const statuses: Partial<Record<ProblemStatus, string>> = {};
  if (route.mount !== 'public') {
    // Every authenticated GET takes min_position / X-Min-Read-Position (src/http/read-position.ts), which may be malformed.
    if (BODY_METHODS.has(route.method) || route.method === 'get' || route.queryParameters !== null || doc.ifMatch)
      statuses[400] = PROBLEM_TITLES[400];
    // A DELETE is answered without a body, but a JSON body sent with it is read like any other (src/http/body.ts).
    if (route.method === 'delete') Object.assign(statuses, { 400: DELETE_BAD_REQUEST, 413: PROBLEM_TITLES[413] });
    statuses[401] = PROBLEM_TITLES[401];
    if (route.permission) statuses[403] = forbidden(route.permission, doc);
    if (pathParameterNames(route.path).length > 0) statuses[404] = PROBLEM_TITLES[404];
    if (doc.ifMatch) statuses[409] = PROBLEM_TITLES[409];
    if (BODY_METHODS.has(route.method)) Object.assign(statuses, { 413: PROBLEM_TITLES[413], 415: PROBLEM_TITLES[415] });
    statuses[503] = PROBLEM_TITLES[503];
  }
  Object.assign(statuses, doc.problems);
  return Object.fromEntries(
    Object.entries(statuses).map(([status, description]) => [
      status,
      {
        description,
        headers: { 'X-Request-Id': ref('#/components/headers/X-Request-Id') },
        content: { 'application/problem+json': { schema: ref('#/components/schemas/Problem') } },
      },
    ]),
  );
}

/**
 * A command on a resource (its id in the path, or one it creates, or one it changes with If-Match)
 * answers with the stream revision it wrote (src/http/command-context.ts); the other POSTs (/ask,
 * the simulator, the sync trigger) write no resource stream. An entry's `etag` overrides this.
 */
const writesResource = (route: ServedRoute, doc: OperationDoc) =>
  route.method !== 'get' &&
  route.mount !== 'public' &&
  (pathParameterNames(route.path).length > 0 ||
    doc.ifMatch === true ||
    (doc.response.kind === 'envelope' && doc.response.status === 201));

function success(route: ServedRoute, doc: OperationDoc): Record<string, unknown> {
  const answer = doc.response;
  const headers: Record<string, unknown> = { 'X-Request-Id': ref('#/components/headers/X-Request-Id') };
  if (answer.kind === 'event-stream') {
    return {
      200: {
        description: `${answer.description}\n\n${answer.events}`,
        headers,
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      },
    };
  }
  if (answer.kind === 'raw') {
    const content = {
      [answer.contentType]: { schema: answer.schema ? jsonSchemaOf(answer.schema, 'output') : { type: 'string' } },
    };
    if (answer.conditional || answer.etag) headers.ETag = ref('#/components/headers/ETag');
    const answers: Record<string, unknown> = Object.fromEntries(
      [answer.status, answer.alsoStatus]
        .filter((s) => s !== undefined)
        .map((status) => [status, { description: answer.description, headers, content }]),
    );
    if (answer.conditional)
      answers[304] = {
        description: 'Not modified: the `If-None-Match` sent is the current ETag',
        headers: { 'X-Request-Id': headers['X-Request-Id'], ETag: headers.ETag },
      };
    return answers;
  }
  if (answer.etag ?? writesResource(route, doc)) headers.ETag = ref('#/components/headers/ETag');
  if (answer.location) headers.Location = ref('#/components/headers/Location');
  if (route.mount !== 'public') headers['X-Read-Model-Pending'] = ref('#/components/headers/X-Read-Model-Pending');
  if (route.method !== 'get' && route.mount !== 'public')
    headers['X-Read-Position'] = ref('#/components/headers/X-Read-Position');
  const data = jsonSchemaOf(answer.data, 'output');
  const schema: JsonSchema = answer.bare
    ? data
    : {
        type: 'object',
        properties: {
          success: { const: true },
          data: answer.list ? { type: 'array', items: data } : data,
          ...(answer.list ? { page: ref('#/components/schemas/Page') } : {}),
        },
        required: ['success', 'data', ...(answer.list ? ['page'] : [])],
        additionalProperties: false,
      };
  const response = { description: answer.description, headers, content: { 'application/json': { schema } } };
  return Object.fromEntries(
    [answer.status, answer.alsoStatus].filter((s) => s !== undefined).map((status) => [status, response]),
  );
}

function otherResponses(doc: OperationDoc): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(doc.otherResponses ?? {}).map(([status, answer]) => [
      status,
      {
        description: answer.description,
        content: { [answer.contentType]: { schema: jsonSchemaOf(answer.schema, 'output') } },
      },
    ]),
  );
}

function parameters(route: ServedRoute, doc: OperationDoc): unknown[] {
  const path = pathParameterNames(route.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const conditional =
    doc.response.kind === 'raw' && doc.response.conditional
      ? [
          {
            name: 'If-None-Match',
            in: 'header',
            required: false,
            description: 'The ETag of the copy held: 304 when it is still current',
            schema: { type: 'string' },
          },
        ]
      : [];
  const query = (route.queryParameters ?? []).map((name) => {
    const schema = doc.query?.[name] ?? pageQuery[name as keyof typeof pageQuery];
    // The schema's description is the parameter's (where the reference page shows it).
    const { description, ...rendered } = schema ? jsonSchemaOf(schema, 'input') : { type: 'string' };
    return { name, in: 'query', required: false, ...(description ? { description } : {}), schema: rendered };
  });
  const headers = Object.entries(doc.headers ?? {}).map(([name, header]) => ({
    name,
    in: 'header',
    required: false,
    description: header.description,
    schema: jsonSchemaOf(header.schema, 'input'),
  }));
  const ifMatch = doc.ifMatch ? [ref('#/components/parameters/IfMatch')] : [];
  // Taken by every authenticated GET, not declared by its route: src/http/read-position.ts.
  const readPosition =
    route.method === 'get' && route.mount !== 'public'
      ? [ref('#/components/parameters/MinReadPosition'), ref('#/components/parameters/MinPosition')]
      : [];
  return [...path, ...query, ...headers, ...ifMatch, ...conditional, ...readPosition];
}

function describe(route: ServedRoute, doc: OperationDoc): string {
  const lines = doc.description ? [doc.description] : [];
  if (route.mount === 'public') lines.push('Public: no token.');
  else
    lines.push(
      route.permission ? `Requires the permission \`${route.permission}\`.` : 'Any valid token; no permission.',
    );
  if (route.mount === 'alias')
    lines.push(`Alias of \`${openApiPath(API_PREFIX + route.key)}\` (the spec lists this path without the prefix).`);
  return lines.join('\n\n');
}

const operationId = (route: ServedRoute) =>
  `${route.method}_${route.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}${route.mount === 'alias' ? '_alias' : ''}`;

export function openApiDocument(options: DocumentOptions) {
  const byKey = new Map(options.operations.map((doc) => [`${doc.method} ${doc.path}`, doc]));
  const used = new Set<OperationDoc>();
  const undocumented: ServedRoute[] = [];
  const inconsistencies: string[] = [];
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of options.routes) {
    const doc = byKey.get(`${route.method} ${route.key}`);
    if (!doc) {
      undocumented.push(route);
      continue;
    }
    used.add(doc);
    const operation: Record<string, unknown> = {
      operationId: operationId(route),
      summary: doc.summary,
      description: describe(route, doc),
      tags: [doc.tag],
      parameters: parameters(route, doc),
      responses: { ...success(route, doc), ...problems(route, doc), ...otherResponses(doc) },
    };
    if (route.permission) operation['x-required-permission'] = route.permission;
    if (doc.conditionalPermissions) operation['x-conditional-permissions'] = doc.conditionalPermissions;
    if (route.mount === 'alias') operation['x-alias-of'] = openApiPath(API_PREFIX + route.key);
    if (route.mount === 'public') operation.security = [];
    if (doc.body) {
      const schema = jsonSchemaOf(doc.body, 'input');
      operation.requestBody = {
        required: !doc.bodyOptional,
        content: Object.fromEntries((doc.bodyTypes ?? ['application/json']).map((type) => [type, { schema }])),
      };
    }
    const undeclared = Object.keys(doc.query ?? {}).filter((name) => !(route.queryParameters ?? []).includes(name));
    if (undeclared.length > 0)
      inconsistencies.push(
        `${route.method} ${route.path}: documents query parameters the route does not accept: ${undeclared.join(', ')}`,
      );
    (paths[openApiPath(route.path)] ??= {})[route.method] = operation;
  }
  const unmatched = options.operations.filter((doc) => !used.has(doc));
  const tags = [...new Set(options.operations.map((doc) => doc.tag))].map((name) => ({
    name,
    ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}),
  }));
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'warehouse-watch API',
      version: options.version,
      description: [
        'Successes are `{ "success": true, "data": … }`; lists add `page: { limit, next_cursor }` — ask for the next page with `?cursor=<next_cursor>`.',
        'Errors are `application/problem+json`. Every response carries `X-Request-Id`.',
        "A request whose line and headers exceed 16 KiB (a very long query string) is answered `431 Request Header Fields Too Large` by Node's HTTP parser, with no body, before any route sees it; bodies are limited to 1 MiB (413).",
        'Every route under `/api/v1` takes a bearer JWT (RS256) from the identity provider; the permission each operation requires is in its description and in `x-required-permission`.',
      ].join('\n\n'),
    },
    servers: servers(options.baseUrl),
    tags,
    security: [{ bearerAuth: [] }, ...(options.embeddedIdp ? [{ clientCredentials: [] }] : [])],
    paths,
    components: components(options.embeddedIdp),
  };
  return { document, undocumented, unmatched, inconsistencies };
}

/**
 * The configured public address first (a saved copy of the document keeps a base URL; it is also the
 * tokens' audience), then `/`: the origin that served the document, for a platform reached under
 * another name (a port-forward, a test on a random port).
 */
function servers(baseUrl: string | undefined) {
  const relative = { url: '/', description: 'The origin that served this document' };
  if (!baseUrl) return [relative];
  return [
    { url: baseUrl, description: "The platform's configured public address (BASE_URL, the tokens' audience)" },
    relative,
  ];
}

function components(embeddedIdp: boolean) {
  return {
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: "An RS256 JWT with `sub`, `user_id`, `tenant_id`, `env_id` and `aud` = the platform's BASE_URL.",
      },
      ...(embeddedIdp
        ? {
            clientCredentials: {
              type: 'oauth2',
              description:
                'The built-in identity provider: POST /oauth/token with the development client (JSON or form body, with `audience` = BASE_URL).',
              flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: {} } },
            },
          }
        : {}),
    },
    schemas: { Problem: jsonSchemaOf(problemSchema, 'output'), Page: jsonSchemaOf(pageSchema, 'output') },
    parameters: {
      IfMatch: {
        name: 'If-Match',
        in: 'header',
        required: false,
        description:
          'The ETag of the version the change is based on; a stale one is 409 and changes nothing. Without it the change applies.',
        schema: { type: 'string' },
      },
      MinReadPosition: {
        name: 'X-Min-Read-Position',
        in: 'header',
        required: false,
        description: READ_AT_POSITION,
        schema: POSITION_SCHEMA,
      },
      MinPosition: {
        name: 'min_position',
        in: 'query',
        required: false,
        description: `The same as the header \`X-Min-Read-Position\` (for clients that cannot set headers; the higher of the two counts). ${READ_AT_POSITION}`,
        schema: POSITION_SCHEMA,
      },
    },
    headers: {
      'X-Request-Id': {
        description: "The request id (the caller's, when it sent a sane one).",
        schema: { type: 'string' },
      },
      ETag: {
        description:
          'The stream revision of the resource (for a command: of the stream it wrote), quoted; send it back as If-Match.',
        schema: { type: 'string' },
      },
      Location: { description: 'The path of the created resource.', schema: { type: 'string' } },
      'X-Read-Model-Pending': {
        description:
          '`true` when the read models had not caught up within READ_YOUR_WRITES_TIMEOUT_MS: with the change (a command), or with the `X-Min-Read-Position` asked for (a GET, answered anyway).',
        schema: { type: 'string', enum: ['true'] },
      },
      'X-Read-Position': {
        description:
          'The log position of the last event the command appended (absent when it appended none). Send it back as `X-Min-Read-Position` (or `?min_position=`) on a later GET, to any instance, to read the change.',
        schema: POSITION_SCHEMA,
      },
    },
  };
}
