import test from 'ava';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

const pager = {
  name: 'Data platform pager',
  type: 'pager',
  config: {
    integration_key: 'R0UTINGKEY0000000000001234567890',
    severity_mapping: { critical: 'critical', high: 'error', medium: 'warning', low: 'info' },
  },
};
const email = {
  name: 'DBA mail',
  type: 'email',
  config: { recipients: ['dba@example.com'], subject_template: '[{{severity}}] {{rule_name}}' },
};

test('create, list, read, update and delete a channel with envelopes, ETags and masked secrets', async (t) => {
  const caller = app.newTenant();
  const created = await app.request('POST', '/notification-channels', { caller, body: pager });
  t.is(created.status, 201);
  t.true(created.body.success);
  const id = created.body.data.id as string;
  t.regex(id, /^[0-9a-f-]{36}$/);
  t.is(created.headers.get('location'), `/notification-channels/${id}`);
  t.is(created.headers.get('etag'), '"0"');
  t.is(created.body.data.config.integration_key, '****7890');
  t.deepEqual(created.body.data.config.severity_mapping, pager.config.severity_mapping);

  const listed = await app.request('GET', '/api/v1/notification-channels', { caller });
  t.is(listed.status, 200);
  t.deepEqual(
    listed.body.data.map((c: { id: string }) => c.id),
    [id],
  );
  t.deepEqual(listed.body.page, { limit: 50, next_cursor: null });

  const read = await app.request('GET', `/notification-channels/${id}`, { caller });
  t.is(read.status, 200);
  t.is(read.headers.get('etag'), '"0"');
  t.like(read.body.data, { id, name: pager.name, type: 'pager' });

  const updated = await app.request('PUT', `/api/v1/notification-channels/${id}`, {
    caller,
    body: {
      ...pager,
      name: 'Renamed',
      config: { ...pager.config, integration_key: read.body.data.config.integration_key },
    },
  });
  t.is(updated.status, 200);
  t.is(updated.headers.get('etag'), '"1"');
  t.is(updated.body.data.name, 'Renamed');
  t.is(updated.body.data.config.integration_key, '****7890', 'the masked key sent back kept the stored secret');

  const deleted = await app.request('DELETE', `/notification-channels/${id}`, { caller });
  t.is(deleted.status, 200);
  t.deepEqual(deleted.body, { success: true, data: { id, deleted: true } });
  t.is((await app.request('GET', `/notification-channels/${id}`, { caller })).status, 404);
  t.is((await app.request('DELETE', `/notification-channels/${id}`, { caller })).status, 404);
});

test('a stale If-Match is 409 and changes nothing; a current one applies', async (t) => {
  const caller = app.newTenant();
  const id = (await app.request('POST', '/notification-channels', { caller, body: email })).body.data.id;
  await app.request('PUT', `/notification-channels/${id}`, { caller, body: { ...email, name: 'v2' } });
  const stale = await app.request('PUT', `/notification-channels/${id}`, {
    caller,
    body: { ...email, name: 'v3' },
    headers: { 'if-match': '"0"' },
  });
  t.is(stale.status, 409);
  t.is(stale.headers.get('content-type'), 'application/problem+json');
  t.is((await app.request('GET', `/notification-channels/${id}`, { caller })).body.data.name, 'v2');
  const staleDelete = await app.request('DELETE', `/notification-channels/${id}`, {
    caller,
    headers: { 'if-match': '"0"' },
  });
  t.is(staleDelete.status, 409);
  const current = await app.request('PUT', `/notification-channels/${id}`, {
    caller,
    body: { ...email, name: 'v3' },
    headers: { 'if-match': '"1"' },
  });
  t.is(current.status, 200);
  t.is(current.body.data.name, 'v3');
  t.is(
    (
      await app.request('PUT', `/notification-channels/${id}`, {
        caller,
        body: email,
        headers: { 'if-match': 'garbage' },
      })
    ).status,
    400,
  );
});

const invalidBodies: [string, unknown, string[]][] = [
  ['unknown type', { name: 'x', type: 'carrier-pigeon', config: {} }, ['/type']],
  ['unknown top-level field', { ...email, colour: 'red' }, ['/']],
  ['unknown config field', { ...email, config: { ...email.config, cc: 'x' } }, ['/config']],
  ['no recipients', { ...email, config: { ...email.config, recipients: [] } }, ['/config/recipients']],
  [
    'a pager integration key shorter than the 32 characters PagerDuty issues',
    { ...pager, config: { ...pager.config, integration_key: 'R0UTINGKEY1234567890' } },
    ['/config/integration_key'],
  ],
  [
    'an invalid recipient',
    { ...email, config: { ...email.config, recipients: ['not-an-address'] } },
    ['/config/recipients/0'],
  ],
  [
    'a chat webhook that is not http',
    { name: 'c', type: 'chat', config: { webhook_url: 'ftp://x', channel_name: '#ops' } },
    ['/config/webhook_url'],
  ],
  [
    'a pager mapping to a value the Events API does not know',
    { ...pager, config: { ...pager.config, severity_mapping: { critical: 'sev1' } } },
    ['/config/severity_mapping/critical'],
  ],
  [
    'a pager mapping of a severity the platform does not have',
    { ...pager, config: { ...pager.config, severity_mapping: { urgent: 'critical' } } },
    ['/config/severity_mapping'],
  ],
  [
    'a webhook with a bad method',
    { name: 'w', type: 'webhook', config: { url: 'https://h.example', headers: {}, method: 'GET' } },
    ['/config/method'],
  ],
  ['a missing name', { type: 'email', config: email.config }, ['/name']],
  ['a body that is not an object', [1, 2], ['']],
];

for (const [title, body, paths] of invalidBodies) {
  test(`400 listing the problem for ${title}, and nothing is created`, async (t) => {
    const caller = app.newTenant();
    const response = await app.request('POST', '/notification-channels', { caller, body });
    t.is(response.status, 400);
    t.is(response.headers.get('content-type'), 'application/problem+json');
    const reported = (response.body.errors as { path: string }[]).map((e) => e.path);
    for (const path of paths) t.true(reported.includes(path), `expected ${path} in ${reported.join(', ')}`);
    t.deepEqual((await app.request('GET', '/notification-channels', { caller })).body.data, []);
  });
}

test('a pager severity_mapping may leave severities out (they take the default); a refused value or key names what is allowed', async (t) => {
  const caller = app.newTenant();
  const partial = await app.request('POST', '/notification-channels', {
    caller,
    body: { ...pager, config: { ...pager.config, severity_mapping: { critical: 'error' } } },
  });
  t.is(partial.status, 201);
  t.deepEqual(partial.body.data.config.severity_mapping, { critical: 'error' }, 'stored as sent');
  const badValue = await app.request('POST', '/notification-channels', {
    caller,
    body: { ...pager, config: { ...pager.config, severity_mapping: { high: 'sev2' } } },
  });
  t.is(badValue.status, 400);
  t.deepEqual(badValue.body.errors, [
    {
      path: '/config/severity_mapping/high',
      message: 'must be an Events API v2 severity: critical, error, warning, info',
    },
  ]);
  const badKey = await app.request('POST', '/notification-channels', {
    caller,
    body: { ...pager, config: { ...pager.config, severity_mapping: { p1: 'critical' } } },
  });
  t.is(badKey.status, 400);
  t.deepEqual(badKey.body.errors, [
    {
      path: '/config/severity_mapping',
      message: 'not a severity of the platform: p1; its severities: critical, high, medium, low',
    },
  ]);
  const putBad = await app.request('PUT', `/notification-channels/${partial.body.data.id}`, {
    caller,
    body: { config: { ...partial.body.data.config, severity_mapping: { low: 'minor' } } },
  });
  t.is(putBad.status, 400, 'the same rule on PUT');
  t.deepEqual(
    putBad.body.errors.map((e: { path: string }) => e.path),
    ['/config/severity_mapping/low'],
  );
  t.deepEqual(
    (await app.request('GET', '/notification-channels', { caller })).body.data.map((c: { id: string }) => c.id),
    [partial.body.data.id],
  );
});

test('PUT takes any subset of name, type, config (SPEC.md: "Updates the configuration"); a config sent replaces the stored one whole, masked secrets kept', async (t) => {
  const caller = app.newTenant();
  const created = await app.request('POST', '/notification-channels', { caller, body: pager });
  const id = created.body.data.id as string;
  const renamed = await app.request('PUT', `/notification-channels/${id}`, {
    caller,
    body: { name: 'Renamed' },
    headers: { 'if-match': '"0"' },
  });
  t.is(renamed.status, 200, JSON.stringify(renamed.body));
  t.is(renamed.headers.get('etag'), '"1"');
  t.deepEqual(
    renamed.body.data,
    { ...created.body.data, name: 'Renamed', updated_at: renamed.body.data.updated_at },
    'type and config kept',
  );
  // A client changes one key of the config as it read it: the masked key comes back and keeps the stored one.
  const remapped = await app.request('PUT', `/notification-channels/${id}`, {
    caller,
    body: { config: { ...renamed.body.data.config, severity_mapping: { critical: 'critical', high: 'critical' } } },
  });
  t.is(remapped.status, 200, JSON.stringify(remapped.body));
  t.deepEqual(
    remapped.body.data.config,
    { integration_key: '****7890', severity_mapping: { critical: 'critical', high: 'critical' } },
    'the map replaced whole, the key kept',
  );
  t.is(remapped.body.data.name, 'Renamed');
  const stored = await app.platform.eventStore.readStream(`channel-${id}`);
  t.deepEqual(
    stored.map((event) => (event.data.config as { integration_key: string }).integration_key),
    Array(3).fill(pager.config.integration_key),
    'the real key, never its mask',
  );
  const notAllOfIt = await app.request('PUT', `/notification-channels/${id}`, {
    caller,
    body: { config: { severity_mapping: {} } },
  });
  t.is(notAllOfIt.status, 400, 'config is replaced whole: the key must be in it');
  t.deepEqual(
    notAllOfIt.body.errors.map((e: { path: string }) => e.path),
    ['/config/integration_key'],
  );
  const newType = await app.request('PUT', `/notification-channels/${id}`, { caller, body: { type: 'email' } });
  t.is(newType.status, 400);
  t.deepEqual(
    newType.body.errors.map((e: { path: string }) => e.path),
    ['/config'],
    'a new type needs its config',
  );
  const asEmail = await app.request('PUT', `/notification-channels/${id}`, {
    caller,
    body: { type: 'email', config: email.config },
  });
  t.like(asEmail.body.data, { name: 'Renamed', type: 'email', config: email.config });
  t.like(
    (await app.request('PUT', `/notification-channels/${id}`, { caller, body: { ...email, name: 'Whole' } })).body.data,
    { name: 'Whole', type: 'email' },
    'a whole body still works',
  );
});

test('PUT refuses an empty body, unknown and read-only fields and a stale If-Match; each changes nothing', async (t) => {
  const caller = app.newTenant();
  const created = await app.request('POST', '/notification-channels', { caller, body: email });
  const id = created.body.data.id as string;
  const refusals: [Record<string, unknown>, string[]][] = [
    [{}, ['/']],
    [{ name: 'x', colour: 'red' }, ['/']],
    [{ id, name: 'x' }, ['/']],
    [{ name: 'x', created_at: '2026-01-01T00:00:00.000Z' }, ['/']],
    [{ name: 'x', tenant_id: 'other' }, ['/']],
    [{ config: { recipients: [] } }, ['/config/recipients', '/config/subject_template']],
  ];
  for (const [body, paths] of refusals) {
    const response = await app.request('PUT', `/notification-channels/${id}`, { caller, body });
    t.is(response.status, 400, JSON.stringify(body));
    t.is(response.headers.get('content-type'), 'application/problem+json');
    t.deepEqual(
      response.body.errors.map((e: { path: string }) => e.path),
      paths,
      JSON.stringify(body),
    );
  }
  t.regex(
    (await app.request('PUT', `/notification-channels/${id}`, { caller, body: {} })).body.errors[0].message,
    /at least one of name, type, config/,
  );
  t.is(
    (
      await app.request('PUT', `/notification-channels/${id}`, {
        caller,
        body: { name: 'v2' },
        headers: { 'if-match': '"0"' },
      })
    ).status,
    200,
  );
  const stale = await app.request('PUT', `/notification-channels/${id}`, {
    caller,
    body: { config: { ...email.config, recipients: ['x@example.com'] } },
    headers: { 'if-match': '"0"' },
  });
  t.is(stale.status, 409);
  const after = await app.request('GET', `/notification-channels/${id}`, { caller });
  t.deepEqual(after.body.data, { ...created.body.data, name: 'v2', updated_at: after.body.data.updated_at });
  t.is(after.headers.get('etag'), '"1"');
});

test('malformed JSON is 400 and a body over 1 MiB is 413', async (t) => {
  const caller = app.newTenant();
  const malformed = await app.request('POST', '/notification-channels', { caller, body: '{"name":' });
  t.is(malformed.status, 400);
  t.is(malformed.headers.get('content-type'), 'application/problem+json');
  const huge = { ...email, name: 'x'.repeat(1024 * 1024 + 10) };
  const tooLarge = await app.request('POST', '/notification-channels', { caller, body: huge });
  t.is(tooLarge.status, 413);
  t.is(tooLarge.headers.get('content-type'), 'application/problem+json');
});

test("another tenant's channel is 404 for read, update and delete, and absent from lists", async (t) => {
  const owner = app.newTenant();
  const intruder = app.newTenant();
  const id = (await app.request('POST', '/notification-channels', { caller: owner, body: email })).body.data.id;
  t.is((await app.request('GET', `/notification-channels/${id}`, { caller: intruder })).status, 404);
  t.is((await app.request('PUT', `/notification-channels/${id}`, { caller: intruder, body: email })).status, 404);
  t.is((await app.request('DELETE', `/notification-channels/${id}`, { caller: intruder })).status, 404);
  t.deepEqual((await app.request('GET', '/notification-channels', { caller: intruder })).body.data, []);
  t.is(
    (await app.request('GET', `/notification-channels/${id}`, { caller: owner })).status,
    200,
    'unchanged for its owner',
  );
});

test('cursor pages visit every channel once, newest first', async (t) => {
  const caller = app.newTenant();
  const ids: string[] = [];
  for (let i = 0; i < 5; i++)
    ids.push(
      (await app.request('POST', '/notification-channels', { caller, body: { ...email, name: `c${i}` } })).body.data.id,
    );
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
    const page = await app.request('GET', `/notification-channels${query}`, { caller });
    t.is(page.status, 200);
    t.true(page.body.data.length <= 2);
    seen.push(...page.body.data.map((c: { id: string }) => c.id));
    cursor = page.body.page.next_cursor;
  } while (cursor);
  t.deepEqual(seen, [...ids].reverse());
  t.is((await app.request('GET', '/notification-channels?limit=0', { caller })).status, 400);
  t.is((await app.request('GET', '/notification-channels?cursor=%%%', { caller })).status, 400);
});

test('unknown routes are problem+json 404; a wrong method is 405', async (t) => {
  const caller = app.newTenant();
  const missing = await app.request('GET', '/api/v1/no-such-thing', { caller });
  t.is(missing.status, 404);
  t.is(missing.headers.get('content-type'), 'application/problem+json');
  const wrongMethod = await app.request('PATCH', '/api/v1/notification-channels', { caller });
  t.is(wrongMethod.status, 405);
});

test('a crafted cursor is a 400, never a query', async (t) => {
  const caller = app.newTenant();
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  for (const cursor of [
    encode({ v: [{}], id: 'z' }),
    encode({ v: [{ $ne: null }], id: 'z' }),
    encode({ v: [null], id: 'z' }),
    encode({ v: ['a', 'b'], id: 'z' }),
    encode({ v: ['a'], id: 5 }),
    encode([]),
  ]) {
    const response = await app.request('GET', `/notification-channels?cursor=${cursor}`, { caller });
    t.is(response.status, 400, Buffer.from(cursor, 'base64url').toString());
  }
});

test('an unavailable store answers 503 naming it, not 500', async (t) => {
  const local = await startTestApp();
  const caller = local.newTenant();
  await local.platform.readStore.close();
  const response = await local.request('GET', '/notification-channels', { caller });
  t.is(response.status, 503);
  t.is(response.headers.get('content-type'), 'application/problem+json');
  t.regex(response.body.detail, /read store is unavailable/);
  await local.close().catch(() => {});
});

test('a masked header PUT back with a new url is 400 naming the header, and the stored secret stays with its url', async (t) => {
  const caller = app.newTenant();
  const hook = {
    name: 'Hook',
    type: 'webhook',
    config: {
      url: 'https://hooks.example.com/in',
      method: 'POST',
      headers: { Authorization: 'Bearer stored-secret-token' },
    },
  };
  const created = await app.request('POST', '/notification-channels', { caller, body: hook });
  const id = created.body.data.id as string;
  t.is(created.body.data.config.headers.Authorization, '****oken');

  const redirect = { ...hook, config: { ...created.body.data.config, url: 'https://attacker.example/collect' } };
  const refused = await app.request('PUT', `/notification-channels/${id}`, { caller, body: redirect });
  t.is(refused.status, 400);
  t.is(refused.headers.get('content-type'), 'application/problem+json');
  t.deepEqual(
    refused.body.errors.map((e: { path: string }) => e.path),
    ['/config/headers/Authorization'],
  );

  const events = await app.platform.eventStore.readStream(`channel-${id}`);
  t.deepEqual(
    events.map((e) => e.type),
    ['ChannelCreated', 'ChannelSigningSecretSet'],
    'nothing recorded by the refused PUT',
  );
  t.deepEqual(events[0]!.data.config, hook.config);
  t.is((await app.request('GET', `/notification-channels/${id}`, { caller })).body.data.config.url, hook.config.url);

  const sameUrl = await app.request('PUT', `/notification-channels/${id}`, {
    caller,
    body: { ...hook, name: 'Renamed', config: created.body.data.config },
  });
  t.is(sameUrl.status, 200, 'a masked header with the url unchanged keeps the secret');
  t.deepEqual((await app.platform.eventStore.readStream(`channel-${id}`)).at(-1)!.data.config, hook.config);
});

test('a masked integration key PUT back with a new type is 400 naming the field; nothing is recorded', async (t) => {
  const caller = app.newTenant();
  const created = await app.request('POST', '/notification-channels', { caller, body: pager });
  const id = created.body.data.id as string;
  const asHook = {
    name: pager.name,
    type: 'webhook',
    config: {
      url: 'https://attacker.example/collect',
      method: 'POST',
      headers: { 'X-Key': created.body.data.config.integration_key },
    },
  };
  const refused = await app.request('PUT', `/notification-channels/${id}`, { caller, body: asHook });
  t.is(refused.status, 400);
  t.deepEqual(
    refused.body.errors.map((e: { path: string }) => e.path),
    ['/config/headers/X-Key'],
  );
  t.deepEqual(
    (await app.platform.eventStore.readStream(`channel-${id}`)).map((e) => e.type),
    ['ChannelCreated'],
  );
});

test('a GET answer PUT back whole is 400 for its read-only fields (the README says so); without them it is 200', async (t) => {
  const caller = app.newTenant();
  const id = (await app.request('POST', '/notification-channels', { caller, body: pager })).body.data.id as string;
  const read = (await app.request('GET', `/notification-channels/${id}`, { caller })).body.data;
  const whole = await app.request('PUT', `/notification-channels/${id}`, { caller, body: read });
  t.is(whole.status, 400);
  t.regex(JSON.stringify(whole.body.errors), /created_at/);
  const { id: _id, created_at: _c, updated_at: _u, ...writable } = read;
  t.is((await app.request('PUT', `/notification-channels/${id}`, { caller, body: writable })).status, 200);
});

test('a chat webhook_url is answered masked; PUT back masked it keeps the stored URL', async (t) => {
  const caller = app.newTenant();
  const chat = {
    name: 'Ops chat',
    type: 'chat',
    config: { webhook_url: 'https://hooks.slack.com/services/T0/B0/abcdefSECRET', channel_name: '#ops' },
  };
  const created = await app.request('POST', '/notification-channels', { caller, body: chat });
  t.is(created.status, 201);
  t.is(created.body.data.config.webhook_url, 'https://hooks.slack.com/****CRET');
  const id = created.body.data.id as string;
  const listed = await app.request('GET', '/notification-channels', { caller });
  t.is(listed.body.data[0].config.webhook_url, 'https://hooks.slack.com/****CRET');
  const updated = await app.request('PUT', `/notification-channels/${id}`, {
    caller,
    body: { ...chat, config: { ...created.body.data.config, channel_name: '#ops-2' } },
  });
  t.is(updated.status, 200);
  t.deepEqual((await app.platform.eventStore.readStream(`channel-${id}`)).at(-1)!.data.config, {
    ...chat.config,
    channel_name: '#ops-2',
  });
});

test('an email subject template may use only the known placeholders', async (t) => {
  const caller = app.newTenant();
  const refused = await app.request('POST', '/notification-channels', {
    caller,
    body: { ...email, config: { ...email.config, subject_template: '{{severity}} {{rule}} on {{host}}' } },
  });
  t.is(refused.status, 400);
  t.deepEqual(
    refused.body.errors.map((e: { path: string }) => e.path),
    ['/config/subject_template'],
  );
  t.regex(refused.body.errors[0].message, /\{\{rule\}\}, \{\{host\}\}/);
  const accepted = await app.request('POST', '/notification-channels', {
    caller,
    body: {
      ...email,
      config: {
        ...email.config,
        subject_template:
          '[{{severity}}] {{status}} {{rule_name}} {{metric}} {{current_value}}/{{threshold}} {{incident_id}}',
      },
    },
  });
  t.is(accepted.status, 201);
});

// The create answer is rendered from the command's own event (no read back), so it must be exactly
// what a GET of the channel shows, for every type and its masked secrets.
const oneOfEachType = [
  pager,
  email,
  {
    name: 'Ops hook',
    type: 'webhook',
    config: {
      url: 'https://hooks.example.com/alerts',
      method: 'POST',
      headers: { Authorization: 'Bearer s3cr3t-token-value' },
    },
  },
  {
    name: 'Ops chat',
    type: 'chat',
    config: { webhook_url: 'https://chat.example.com/hooks/T000/B000/XXXXXXXXXXXX', channel_name: '#ops' },
  },
];
for (const channel of oneOfEachType) {
  test(`the answer to creating a channel of type ${channel.type} is what GET shows of it`, async (t) => {
    const caller = app.newTenant();
    const created = await app.request('POST', '/notification-channels', { caller, body: channel });
    t.is(created.status, 201, JSON.stringify(created.body));
    const { signing_secret: secret, ...answered } = created.body.data as Record<string, unknown>;
    t.is(secret !== undefined, channel.type === 'webhook', 'only webhook channels are answered a signing secret');
    const read = await app.request('GET', `/notification-channels/${answered.id}`, { caller });
    t.is(read.status, 200);
    t.deepEqual(answered, read.body.data);
  });
}
