/**
 * PagerDuty's Events API v2 contract at `/v2/enqueue` and `/v2/change/enqueue`, table-driven from
 * PagerDuty's documentation (docs/integrations.md names the pages): every field, every documented
 * limit (summary 1024 characters, dedup_key 255, routing_key 32, payload 512 KB, ~120 events a
 * minute per key) and every error, in PagerDuty's answer shapes, on the real app. A refused event
 * changes nothing: no incident, nothing counted.
 */
import test from 'ava';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';

const PER_MINUTE = 40;
let app: TestApp;
let caller: Caller;
let key: string;
let integrationId: string;

test.before(async () => {
  app = await startTestApp({ env: { INTEGRATION_EVENTS_PER_KEY_PER_MINUTE: String(PER_MINUTE) } });
  caller = app.newTenant();
  const channel = await app.request('POST', '/api/v1/notification-channels', {
    caller,
    body: { name: 'c', type: 'email', config: { recipients: ['oncall@example.com'], subject_template: '{{title}}' } },
  });
  const policy = await app.request('POST', '/api/v1/escalation-policies', {
    caller,
    body: {
      name: 'p',
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.body.data.id }] }],
    },
  });
  const integration = await app.request('POST', '/api/v1/integrations', {
    caller,
    body: { name: 'contract', kind: 'events_v2', escalation_policy_id: policy.body.data.id },
  });
  if (integration.status !== 201) throw new Error(JSON.stringify([channel.body, policy.body, integration.body]));
  key = integration.body.data.routing_key;
  integrationId = integration.body.data.id;
});
test.after.always(async () => app?.close());

const payload = { summary: 'Disk full on db-1', source: 'db-1.example', severity: 'critical' };
const valid = () => ({ routing_key: key, event_action: 'trigger', dedup_key: 'contract', payload });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  app.request('POST', path, { body, headers });
const invalid = (...errors: string[]) => ({ status: 'invalid event', message: 'Event object is invalid', errors });
const incidents = async () =>
  (await app.request('GET', `/api/v1/incidents?source=integration:${integrationId}`, { caller })).body.data as any[];

type Row = [name: string, body: (base: Record<string, any>) => unknown, errors: string[]];
const refusedAlerts: Row[] = [
  ['routing_key missing', ({ routing_key: _k, ...rest }) => rest, ["'routing_key' is missing or blank"]],
  ['routing_key not a string', (b) => ({ ...b, routing_key: 42 }), ["'routing_key' must be a string"]],
  [
    'routing_key not 32 characters',
    (b) => ({ ...b, routing_key: 'abc' }),
    ["Length of 'routing_key' is incorrect (should be 32 characters)"],
  ],
  ['routing_key that routes nowhere', (b) => ({ ...b, routing_key: 'f'.repeat(32) }), ['Invalid routing key']],
  ['event_action missing', ({ event_action: _a, ...rest }) => rest, ["'event_action' is missing or blank"]],
  [
    'event_action unknown',
    (b) => ({ ...b, event_action: 'escalate' }),
    ["'event_action' is invalid (must be one of trigger, acknowledge, resolve)"],
  ],
  [
    'dedup_key over 255 characters',
    (b) => ({ ...b, dedup_key: 'k'.repeat(256) }),
    ["Length of 'dedup_key' is too long (maximum is 255 characters)"],
  ],
  ['dedup_key not a string', (b) => ({ ...b, dedup_key: 7 }), ["'dedup_key' must be a string"]],
  [
    'acknowledge without dedup_key',
    ({ dedup_key: _d, ...rest }) => ({ ...rest, event_action: 'acknowledge' }),
    ["'dedup_key' is missing or blank"],
  ],
  [
    'resolve with a blank dedup_key',
    (b) => ({ ...b, event_action: 'resolve', dedup_key: '  ' }),
    ["'dedup_key' is missing or blank"],
  ],
  ['trigger without payload', ({ payload: _p, ...rest }) => rest, ["'payload' is missing or blank"]],
  ['payload not an object', (b) => ({ ...b, payload: 'x' }), ["'payload' must be an object"]],
  [
    'payload.summary, source and severity missing',
    (b) => ({ ...b, payload: {} }),
    [
      "'payload.summary' is missing or blank",
      "'payload.source' is missing or blank",
      "'payload.severity' is missing or blank",
    ],
  ],
  [
    'payload.summary over 1024 characters',
    (b) => ({ ...b, payload: { ...payload, summary: 's'.repeat(1025) } }),
    ["Length of 'payload.summary' is too long (maximum is 1024 characters)"],
  ],
  [
    'payload.severity unknown',
    (b) => ({ ...b, payload: { ...payload, severity: 'high' } }),
    ["'payload.severity' is invalid (must be one of critical, error, warning, info)"],
  ],
  [
    'payload.timestamp not ISO 8601',
    (b) => ({ ...b, payload: { ...payload, timestamp: 'yesterday' } }),
    ["'payload.timestamp' is invalid (must be an ISO 8601 date-time)"],
  ],
  [
    'payload.component, group, class not strings',
    (b) => ({ ...b, payload: { ...payload, component: 1, group: [], class: {} } }),
    ["'payload.component' must be a string", "'payload.group' must be a string", "'payload.class' must be a string"],
  ],
  ['links not an array', (b) => ({ ...b, links: {} }), ["'links' must be an array"]],
  ['a link without href', (b) => ({ ...b, links: [{ text: 'x' }] }), ["'links[0].href' is missing or blank"]],
  ['an image without src', (b) => ({ ...b, images: [{ alt: 'x' }] }), ["'images[0].src' is missing or blank"]],
  [
    'client and client_url not strings',
    (b) => ({ ...b, client: 1, client_url: false }),
    ["'client' must be a string", "'client_url' must be a string"],
  ],
];

test.serial(
  "every invalid alert event: 400 in PagerDuty's shape naming each bad field, and nothing changes",
  async (t) => {
    for (const [name, body, errors] of refusedAlerts) {
      const answer = await post('/v2/enqueue', body(valid()));
      t.is(answer.status, 400, name);
      t.deepEqual(answer.body, invalid(...errors), name);
    }
    t.is((await incidents()).length, 0);
  },
);

test.serial('a body that is not a JSON object, or not sent as JSON, and one over 512 KB', async (t) => {
  const unrecognized = {
    status: 'Unrecognized object',
    message: 'Event object format is unrecognized',
    errors: ['JSON parse error'],
  };
  for (const text of ['{not json', '[1]', '"x"', 'null', '']) {
    const answer = await post('/v2/enqueue', text);
    t.is(answer.status, 400, text);
    t.deepEqual(answer.body, unrecognized, text);
  }
  const asText = await post('/v2/enqueue', JSON.stringify(valid()), { 'content-type': 'text/plain' });
  t.is(asText.status, 400);
  t.deepEqual(asText.body, unrecognized);
  const big = { ...valid(), payload: { ...payload, custom_details: { blob: 'x'.repeat(512 * 1024) } } };
  const tooLarge = await post('/v2/enqueue', big);
  t.is(tooLarge.status, 413);
  t.like(tooLarge.body, { status: 'invalid event', message: 'Event object is too large' });
  // Just under the limit is taken.
  const under = { ...valid(), payload: { ...payload, custom_details: { blob: 'x'.repeat(500 * 1024) } } };
  t.is((await post('/v2/enqueue', under)).status, 202);
  t.is((await incidents()).length, 1);
});

test.serial("every field is kept: PagerDuty's documented example event, limits at their edge", async (t) => {
  const example = {
    payload: {
      summary: 's'.repeat(1024),
      timestamp: '2015-07-17T08:42:58.315+0000',
      source: 'monitoringtool:cloudvendor:central-region-dc-01:852559987:cluster/api-stats-prod-003',
      severity: 'info',
      component: 'postgres',
      group: 'prod-datapipe',
      class: 'deploy',
      custom_details: { 'ping time': '1500ms', 'load avg': 0.75 },
    },
    routing_key: key,
    dedup_key: 'd'.repeat(255),
    images: [{ src: 'https://example.com/chart.png', href: 'https://example.com/', alt: 'Example text' }],
    links: [{ href: 'https://example.com/', text: 'Link text' }],
    event_action: 'trigger',
    client: 'Sample Monitoring Service',
    client_url: 'https://monitoring.example.com',
    an_unknown_field: 'ignored, as PagerDuty does',
  };
  const answer = await post('/v2/enqueue', example);
  t.is(answer.status, 202);
  t.deepEqual(answer.body, { status: 'success', message: 'Event processed', dedup_key: 'd'.repeat(255) });
  const incident = (await incidents()).find((i) => i.dedup_key === 'd'.repeat(255));
  t.like(incident, { title: 's'.repeat(1024), severity: 'low' });
  t.deepEqual(incident.sender, {
    source: example.payload.source,
    component: 'postgres',
    group: 'prod-datapipe',
    class: 'deploy',
    timestamp: '2015-07-17T08:42:58.315Z',
    severity: 'info',
    custom_details: { 'ping time': '1500ms', 'load avg': 0.75 },
    links: [{ href: 'https://example.com/', text: 'Link text' }],
    images: [{ src: 'https://example.com/chart.png', href: 'https://example.com/', alt: 'Example text' }],
    client: 'Sample Monitoring Service',
    client_url: 'https://monitoring.example.com',
    labels: null,
  });
  // The documented acknowledge and resolve bodies (no payload).
  for (const event_action of ['acknowledge', 'resolve'])
    t.like(await post('/v2/enqueue', { routing_key: key, dedup_key: 'd'.repeat(255), event_action }), { status: 202 });
  t.is((await incidents()).find((i) => i.dedup_key === 'd'.repeat(255)).status, 'resolved');
});

test.serial('change events: their fields and errors', async (t) => {
  const rows: [unknown, number, unknown][] = [
    [{ routing_key: key }, 400, invalid("'payload' is missing or blank")],
    [{ routing_key: key, payload: {} }, 400, invalid("'payload.summary' is missing or blank")],
    [
      { routing_key: key, payload: { summary: 's'.repeat(1025) } },
      400,
      invalid("Length of 'payload.summary' is too long (maximum is 1024 characters)"),
    ],
    [
      { routing_key: 'x', payload: { summary: 's' } },
      400,
      invalid("Length of 'routing_key' is incorrect (should be 32 characters)"),
    ],
    [{ routing_key: 'e'.repeat(32), payload: { summary: 's' } }, 400, invalid('Invalid routing key')],
    [
      {
        routing_key: key,
        payload: { summary: 'Build Success', timestamp: '2020-07-17T08:42:58.315+0000', source: 'ci' },
      },
      202,
      { status: 'success', message: 'Change event processed' },
    ],
  ];
  for (const [body, status, answer] of rows) {
    const got = await post('/v2/change/enqueue', body);
    t.is(got.status, status, JSON.stringify(body));
    t.deepEqual(got.body, answer);
  }
  const changes = (await app.request('GET', '/api/v1/change-events', { caller })).body.data as any[];
  t.deepEqual(
    changes.map((c) => c.summary),
    ['Build Success'],
  );
});

test.serial("over ~120 (here 40) events a minute to one key: 429 with Retry-After, in PagerDuty's shape", async (t) => {
  // The tests above spent some of the key's minute; spend the rest, then one more.
  let answer = await post('/v2/enqueue', valid());
  for (let i = 0; i < PER_MINUTE && answer.status !== 429; i++) answer = await post('/v2/enqueue', valid());
  t.is(answer.status, 429);
  t.like(answer.body, { status: 'throttle event', message: 'Request Limit Exceeded' });
  t.true(Number(answer.headers.get('retry-after')) >= 1);
});
