/**
 * Acknowledge and resolve from the page (issue 31, section 2), through the real platform: a stage
 * pages a webhook, a chat channel, an email channel and a user (email and SMS), each through the
 * receiver stand-ins; the links in what they received open a confirmation page (GET changes
 * nothing) whose POST acts once, as the recipient. Refused links (used, expired, tampered,
 * another tenant's, rotated away, for a resolved incident) leave the incident's stream as it was.
 * The escalation manager and the link expiry run on a virtual clock.
 */
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventLogSigningKeys } from '../src/action-links/signing-keys.js';
import { readActionLinkToken, signActionLinkToken } from '../src/action-links/token.js';
import { incidentStream } from '../src/events/incident.js';
import { T0, VirtualClock } from './support/escalation-harness.js';
import { TEST_AUDIENCE } from './support/jwks-server.js';
import { startChatReceiver, type ChatReceiver } from './support/notify-receivers/chat-receiver.js';
import { startHttpReceiver, type HttpReceiver } from './support/notify-receivers/http-receiver.js';
import { startSmsProviderStandIn, type SmsProviderStandIn } from './support/notify-receivers/sms-provider-standin.js';
import { startSmtpReceiver, type SmtpReceiver } from './support/notify-receivers/smtp-receiver.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

let app: TestApp;
let webhooks: HttpReceiver;
let chat: ChatReceiver;
let smtp: SmtpReceiver;
let sms: SmsProviderStandIn;
const clock = new VirtualClock();

test.before(async () => {
  webhooks = await startHttpReceiver(() => ({ status: 204 }));
  chat = await startChatReceiver();
  smtp = await startSmtpReceiver();
  sms = await startSmsProviderStandIn();
  app = await startTestApp({
    now: clock.now,
    scheduler: clock.scheduler,
    env: {
      ALERT_EVALUATION_INTERVAL_SECONDS: '1',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      SMTP_URL: smtp.url,
      SMS_PROVIDER_URL: sms.url,
      SMS_PROVIDER_TOKEN: sms.token,
      ACTION_LINK_REQUESTS_PER_ADDRESS_PER_MINUTE: '10000',
    },
  });
});
test.after.always(async () => {
  await app?.close();
  await Promise.all([webhooks?.stop(), chat?.stop(), smtp?.stop(), sms?.stop()]);
});

async function created(caller: Caller, path: string, body: unknown): Promise<any> {
  const response = await app.request('POST', path, { caller, body });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

interface Paged {
  incidentId: string;
  policyId: string;
  webhookChannelId: string;
  /** The links of the webhook payload. */
  acknowledgeUrl: string;
  resolveUrl: string;
}

/** A rule that triggers at once and a one-stage policy paging a webhook (and `extraTargets`); waits until every page's outcome is recorded. */
async function pagedIncident(
  caller: Caller,
  name: string,
  extraTargets: unknown[] = [],
  deliveries = 1,
): Promise<Paged> {
  const webhook = await created(caller, '/notification-channels', {
    name: `${name} hook`,
    type: 'webhook',
    config: { url: `${webhooks.url}/${encodeURIComponent(name)}`, method: 'POST', headers: {} },
  });
  const policy = await created(caller, '/api/v1/escalation-policies', {
    name: `${name} policy`,
    stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: webhook.id }, ...extraTargets] }],
  });
  await app.request('POST', '/api/v1/simulator/metrics', {
    caller,
    body: { metric: 'queue_time_seconds', value: 99, duration_seconds: 3600 },
  });
  const rule = await created(caller, '/api/v1/alert-rules', {
    name,
    metric: 'queue_time_seconds',
    condition: 'gt',
    threshold: 30,
    evaluation_window_minutes: 0,
    severity: 'high',
    escalation_policy_id: policy.id,
  });
  let incidentId = '';
  await waitFor(
    async () => {
      incidentId =
        (await app.request('GET', `/api/v1/incidents?rule_id=${rule.id}`, { caller })).body.data?.[0]?.id ?? '';
      return incidentId !== '';
    },
    { timeoutMs: 15_000, message: 'the incident' },
  );
  await waitFor(
    async () =>
      (await app.platform.eventStore.readStream(incidentStream(incidentId))).filter(
        (e) => e.type === 'NotificationDelivered',
      ).length === deliveries,
    { timeoutMs: 15_000, message: 'every page delivered' },
  );
  const payload = JSON.parse(webhooks.requests.find((r) => r.path === `/${encodeURIComponent(name)}`)!.body);
  return {
    incidentId,
    policyId: policy.id,
    webhookChannelId: webhook.id,
    acknowledgeUrl: payload.actions.acknowledge_url,
    resolveUrl: payload.actions.resolve_url,
  };
}

/** The link as served by the test app (links name PUBLIC_URL, here BASE_URL). */
const local = (link: string) => {
  const url = new URL(link);
  if (url.origin !== TEST_AUDIENCE) throw new Error(`a link not on BASE_URL: ${link}`);
  return `${app.url}${url.pathname}`;
};
const open = async (link: string) => {
  const response = await fetch(local(link));
  return { status: response.status, headers: response.headers, html: await response.text() };
};
/** What the page's button does: an empty form POSTed to the same address (`headers`, `body`: what else a request may send). */
const press = async (link: string, options: { headers?: Record<string, string>; body?: string } = {}) => {
  const response = await fetch(local(link), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
    body: options.body,
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    html: await response.text(),
  };
};
/** The mails received, quoted-printable soft breaks and `=3D` undone. */
const mailsTo = (address: string) =>
  smtp.mails
    .map((mail) => mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='))
    .filter((raw) => raw.includes(`To: ${address}`));
/** The two links of the (one) page mailed to `address`, or null when it carries none. */
function mailedLinks(address: string): { acknowledgeUrl: string; resolveUrl: string } | null {
  const [mail, ...more] = mailsTo(address);
  if (!mail || more.length > 0) throw new Error(`expected one mail to ${address}, got ${more.length + (mail ? 1 : 0)}`);
  const acknowledgeUrl = /Acknowledge: +(\S+)/.exec(mail)?.[1];
  const resolveUrl = /Resolve: +(\S+)/.exec(mail)?.[1];
  return acknowledgeUrl && resolveUrl ? { acknowledgeUrl, resolveUrl } : null;
}
const revisionOf = async (incidentId: string) =>
  (await app.platform.eventStore.readStream(incidentStream(incidentId))).at(-1)!.revision;
/** Waits for the all-clear of a resolved incident to be recorded (the escalation manager appends it). */
const allClearRecorded = (incidentId: string) =>
  waitFor(
    async () =>
      (await app.platform.eventStore.readStream(incidentStream(incidentId))).some(
        (e) => e.type === 'NotificationDelivered' && e.data.kind === 'resolution',
      ),
    { timeoutMs: 15_000, message: 'the all-clear recorded' },
  );
const tokenOf = (link: string) => new URL(link).pathname.slice('/a/'.length);

test.serial(
  'every medium of a page carries the two links: webhook payload, chat buttons, email text, SMS',
  async (t) => {
    const caller = app.newTenant();
    const chatChannel = await created(caller, '/notification-channels', {
      name: 'ops chat',
      type: 'chat',
      config: { webhook_url: chat.webhookUrl, channel_name: '#ops' },
    });
    const emailChannel = await created(caller, '/notification-channels', {
      name: 'ops mail',
      type: 'email',
      config: { recipients: ['oncall@example.com'], subject_template: '{{severity}}: {{rule_name}}' },
    });
    const user = await created(caller, '/api/v1/users', {
      email: 'pat@example.com',
      name: 'Pat',
      role_id: 'responder',
      group_ids: [],
      phone: '+447700900123',
    });
    const paged = await pagedIncident(
      caller,
      'media rule',
      [
        { type: 'channel', id: chatChannel.id },
        { type: 'channel', id: emailChannel.id },
        { type: 'user', id: user.id, channels: ['email', 'sms'] },
      ],
      5,
    );

    t.regex(paged.acknowledgeUrl, /^http:\/\/platform\.test\/a\/[A-Za-z0-9_-]+$/);
    t.regex(paged.resolveUrl, /^http:\/\/platform\.test\/a\/[A-Za-z0-9_-]+$/);
    t.like(readActionLinkToken(tokenOf(paged.acknowledgeUrl))!.claims, {
      tenantId: caller.tenantId,
      incidentId: paged.incidentId,
      action: 'acknowledge',
      recipient: { kind: 'channel', id: paged.webhookChannelId },
    });

    const posted = chat.messages.at(-1)!;
    const buttons = posted.blocks.find((block) => block.type === 'actions') as {
      elements: { type: string; url: string; text: { text: string } }[];
    };
    t.deepEqual(
      buttons.elements.map((b) => [b.type, b.text.text]),
      [
        ['button', 'Acknowledge'],
        ['button', 'Resolve'],
      ],
    );
    t.true(buttons.elements.every((b) => b.url.startsWith(`${TEST_AUDIENCE}/a/`)));
    t.true(
      posted.text.includes(`|Acknowledge>`) && posted.text.includes(buttons.elements[0]!.url),
      'the links are in the text too',
    );

    const mails = smtp.mails.map((mail) => mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='));
    const mailTo = (address: string) => mails.find((raw) => raw.includes(`To: ${address}`))!;
    for (const address of ['oncall@example.com', 'pat@example.com']) {
      t.regex(mailTo(address), /Acknowledge: +http:\/\/platform\.test\/a\/[A-Za-z0-9_-]+/, address);
      t.regex(mailTo(address), /Resolve: +http:\/\/platform\.test\/a\/[A-Za-z0-9_-]+/, address);
    }
    const text = sms.messages.at(-1)!.body;
    t.regex(
      text,
      /ACK: http:\/\/platform\.test\/a\/[A-Za-z0-9_-]+ RESOLVE: http:\/\/platform\.test\/a\/[A-Za-z0-9_-]+$/,
    );

    // The user's own link acts as the user, and the page names them by their masked address.
    const smsAck = /ACK: (\S+)/.exec(text)![1]!;
    t.regex((await open(smsAck)).html, /as \+44\*+123/);
    t.is((await press(smsAck)).status, 200);
    const incident = (await app.request('GET', `/api/v1/incidents/${paged.incidentId}`, { caller })).body.data;
    t.like(incident, { status: 'acknowledged', acknowledged_by: user.id });
    // The same person's mailed link: told they did it themself (as their masked address on that link), never by id.
    const mailedAck = /Acknowledge: +(\S+)/.exec(mailTo('pat@example.com'))![1]!;
    const again = await press(mailedAck);
    t.is(again.status, 409);
    t.regex(again.html, /already acknowledged by you \(p\*+@example\.com\)/);
    t.false(again.html.includes(user.id));
    const channelAck = buttons.elements[0]!.url;
    const byOther = await press(channelAck);
    t.regex(byOther.html, /already acknowledged by someone else/);
    t.false(byOther.html.includes(user.id) || byOther.html.includes('pat@'), 'another recipient is not told who');
  },
);

test.serial(
  'GET changes nothing; the button acknowledges once, as the recipient, and the audit history says so',
  async (t) => {
    const caller = app.newTenant();
    const paged = await pagedIncident(caller, '<b>Queue</b> & "wait"');
    const before = await revisionOf(paged.incidentId);

    const page = await open(paged.acknowledgeUrl);
    t.is(page.status, 200);
    t.regex(page.headers.get('content-type')!, /^text\/html/);
    t.regex(page.headers.get('content-security-policy')!, /default-src 'none'/);
    t.notRegex(page.headers.get('content-security-policy')!, /script-src/, 'no script allowed');
    t.false(/<script/i.test(page.html), 'no script on the page');
    t.true(page.html.includes('&lt;b&gt;Queue&lt;/b&gt; &amp; &quot;wait&quot;'), 'the incident name is shown as text');
    t.false(page.html.includes('<b>Queue</b>'));
    t.regex(page.html, /<form method="post"><button type="submit">Acknowledge as channel:/);
    await open(paged.acknowledgeUrl);
    t.is(await revisionOf(paged.incidentId), before, 'opening the link (twice) changed nothing');

    const done = await press(paged.acknowledgeUrl);
    t.is(done.status, 200);
    t.regex(done.html, /Incident acknowledged/);
    const actor = `recipient:channel:${paged.webhookChannelId}`;
    t.like((await app.request('GET', `/api/v1/incidents/${paged.incidentId}`, { caller })).body.data, {
      status: 'acknowledged',
      acknowledged_by: actor,
    });
    const history = (await app.request('GET', `/api/v1/incidents/${paged.incidentId}/events`, { caller })).body
      .data as any[];
    const acknowledged = history.find((e) => e.type === 'IncidentAcknowledged');
    const linkId = readActionLinkToken(tokenOf(paged.acknowledgeUrl))!.claims.linkId;
    t.like(acknowledged, { actor, correlation_id: `action-link:${linkId}`, data: { by: actor } });

    const after = await revisionOf(paged.incidentId);
    const again = await press(paged.acknowledgeUrl);
    t.is(again.status, 410);
    t.regex(again.html, /already used/);
    t.is(await revisionOf(paged.incidentId), after, 'a used link changes nothing');
    t.regex((await open(paged.acknowledgeUrl)).html, /already used/, 'and its page says so');
  },
);

test.serial('two presses at once: one acknowledges, the other is told the link was used', async (t) => {
  const caller = app.newTenant();
  const paged = await pagedIncident(caller, 'race rule');
  const answers = await Promise.all([press(paged.acknowledgeUrl), press(paged.acknowledgeUrl)]);
  t.deepEqual(answers.map((a) => a.status).sort(), [200, 410]);
  t.regex(answers.find((a) => a.status === 410)!.html, /already used/);
  const events = await app.platform.eventStore.readStream(incidentStream(paged.incidentId));
  t.is(events.filter((e) => e.type === 'IncidentAcknowledged').length, 1);
});

test.serial("tampered, another tenant's and malformed links change nothing", async (t) => {
  const caller = app.newTenant();
  const paged = await pagedIncident(caller, 'tamper rule');
  const before = await revisionOf(paged.incidentId);
  const token = tokenOf(paged.acknowledgeUrl);
  const flipped = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
  for (const link of [
    `${TEST_AUDIENCE}/a/${flipped}`,
    `${TEST_AUDIENCE}/a/not-a-token`,
    `${TEST_AUDIENCE}/a/${token.slice(0, -2)}`,
  ]) {
    const answer = await press(link);
    t.is(answer.status, 400, link);
    t.regex(answer.html, /not valid/);
    t.is((await open(link)).status, 400);
  }
  // Another tenant signs a link naming this incident with its own (valid) key: not its incident.
  const other = app.newTenant();
  const keys = eventLogSigningKeys(app.platform.eventStore, clock.now);
  const foreignKey = await keys.ensure(other.tenantId);
  const claims = readActionLinkToken(token)!.claims;
  const foreign = signActionLinkToken(
    { ...claims, tenantId: other.tenantId, keyGeneration: foreignKey.generation },
    foreignKey.key,
  );
  const answer = await press(`${TEST_AUDIENCE}/a/${foreign}`);
  t.is(answer.status, 404);
  t.regex(answer.html, /No such incident/);
  t.is(await revisionOf(paged.incidentId), before, 'nothing changed');
  t.is((await app.request('GET', `/api/v1/incidents/${paged.incidentId}`, { caller })).body.data.status, 'triggered');
});

test.serial(
  'a resolve link resolves as the recipient; links for a resolved incident say so and change nothing',
  async (t) => {
    const caller = app.newTenant();
    const paged = await pagedIncident(caller, 'resolve rule');
    t.regex((await open(paged.resolveUrl)).html, /Resolve this incident\?/);
    t.is((await press(paged.resolveUrl)).status, 200);
    t.like((await app.request('GET', `/api/v1/incidents/${paged.incidentId}`, { caller })).body.data, {
      status: 'resolved',
      resolved_by: `recipient:channel:${paged.webhookChannelId}`,
      resolution_reason: 'manual',
    });
    await allClearRecorded(paged.incidentId);
    const before = await revisionOf(paged.incidentId);
    const answer = await press(paged.acknowledgeUrl);
    t.is(answer.status, 409);
    t.regex(answer.html, /already resolved/);
    t.regex((await open(paged.acknowledgeUrl)).html, /already resolved/);
    t.is(await revisionOf(paged.incidentId), before);

    // Resolved through the API: the same.
    const elsewhere = app.newTenant();
    const second = await pagedIncident(elsewhere, 'resolved elsewhere');
    t.is(
      (await app.request('POST', `/api/v1/incidents/${second.incidentId}/resolve`, { caller: elsewhere, body: {} }))
        .status,
      200,
    );
    await allClearRecorded(second.incidentId);
    const resolvedAt = await revisionOf(second.incidentId);
    for (const link of [second.acknowledgeUrl, second.resolveUrl]) {
      const refused = await press(link);
      t.is(refused.status, 409);
      t.regex(refused.html, /already resolved by someone else/);
      t.false(refused.html.includes(elsewhere.userId), 'the page names nobody: not who resolved it');
    }
    t.is(await revisionOf(second.incidentId), resolvedAt);
  },
);

test.serial('rotating the key (iam:admin) revokes every earlier link', async (t) => {
  const caller = app.newTenant();
  const paged = await pagedIncident(caller, 'rotate rule');
  const admin = { ...caller, roles: ['admin'] };
  t.is(
    (await app.request('POST', '/api/v1/action-links/rotate', { caller: admin, body: {} })).status,
    403,
    'admin lacks iam:admin',
  );
  t.is((await open(paged.acknowledgeUrl)).status, 200, 'still valid before the rotation');
  const rotated = await app.request('POST', '/api/v1/action-links/rotate', { caller, body: {} });
  t.is(rotated.status, 200);
  t.is(rotated.body.data.key_generation, 1);
  t.false(JSON.stringify(rotated.body).includes('key"'), 'the key itself is never answered');
  const before = await revisionOf(paged.incidentId);
  const answer = await press(paged.acknowledgeUrl);
  t.is(answer.status, 410);
  t.regex(answer.html, /revoked/);
  t.is(await revisionOf(paged.incidentId), before);
  const stored = await app.platform.eventStore.readStream(`action-link-keys-${caller.tenantId}`);
  t.is(stored.length, 2);
  // Sealed at rest like channel secrets: the log's files never hold a key in the clear.
  const logBytes = ['events.db', 'events.db-wal']
    .filter((name) => existsSync(join(app.dataDir, name)))
    .map((name) => readFileSync(join(app.dataDir, name)).toString('latin1'))
    .join('');
  for (const event of stored) t.false(logBytes.includes(String(event.data.key)), 'a key in the clear in events.db');
  t.true(logBytes.includes('"key":"enc:v1:'), 'the key is sealed');
});

test.serial('an expired link (24 h by default, on the virtual clock) changes nothing', async (t) => {
  const caller = app.newTenant();
  const paged = await pagedIncident(caller, 'expiry rule');
  const expiresAt = readActionLinkToken(tokenOf(paged.acknowledgeUrl))!.claims.expiresAt * 1000;
  t.is(expiresAt - clock.now().getTime(), 24 * 3_600_000, 'ACTION_LINK_TTL_HOURS defaults to 24');
  const before = await revisionOf(paged.incidentId);
  clock.scheduler.maxFrames = expiresAt - T0;
  clock.scheduler.flush();
  clock.scheduler.frame = expiresAt - T0;
  clock.scheduler.maxFrames = Infinity;
  await app.platform.escalation.idle();
  const answer = await press(paged.acknowledgeUrl);
  t.is(answer.status, 410);
  t.regex(answer.html, /expired/);
  t.is(await revisionOf(paged.incidentId), before);
});

/** A user of the caller's tenant with an address no other test uses. */
async function user(caller: Caller, name: string, roleId: string): Promise<{ id: string; email: string }> {
  const email = `${name}.${caller.tenantId.slice(0, 8)}@example.com`;
  const made = await created(caller, '/api/v1/users', { email, name, role_id: roleId, group_ids: [] });
  return { id: made.id, email };
}

test.serial(
  'a link acts only for a person who may act now: deactivated, deleted, demoted to viewer, or denied incidents:write is refused (403, names nobody)',
  async (t) => {
    const caller = app.newTenant();
    const [deactivated, deleted, demoted, denied, viewer] = await Promise.all([
      user(caller, 'deactivated', 'responder'),
      user(caller, 'deleted', 'responder'),
      user(caller, 'demoted', 'responder'),
      user(caller, 'denied', 'responder'),
      user(caller, 'viewer', 'viewer'),
    ]);
    const people = [deactivated, deleted, demoted, denied, viewer];
    const paged = await pagedIncident(
      caller,
      'people rule',
      people.map((person) => ({ type: 'user', id: person.id, channels: ['email'] })),
      1 + people.length,
    );

    // A viewer may not acknowledge through the API: the page carries no links for them.
    t.truthy(mailsTo(viewer.email)[0], 'the viewer is paged');
    t.is(mailedLinks(viewer.email), null, 'no action links minted for a viewer');
    const links = Object.fromEntries(
      [deactivated, deleted, demoted, denied].map((person) => [person.id, mailedLinks(person.email)!]),
    );

    // Each loses the right after the page was sent, the way the API would see it.
    t.is(
      (await app.request('PATCH', `/api/v1/users/${deactivated.id}`, { caller, body: { is_active: false } })).status,
      200,
    );
    t.is((await app.request('DELETE', `/api/v1/users/${deleted.id}`, { caller })).status, 200);
    t.is(
      (await app.request('PATCH', `/api/v1/users/${demoted.id}`, { caller, body: { role_id: 'viewer' } })).status,
      200,
    );
    t.is(
      (
        await app.request('PUT', `/api/v1/users/${denied.id}/permission-overrides`, {
          caller,
          body: { permissions: { 'incidents:write': 'deny' } },
        })
      ).status,
      200,
    );
    // A link for the viewer signed with the tenant's key (as if minted before it was refused): refused all the same.
    const keys = eventLogSigningKeys(app.platform.eventStore, clock.now);
    const key = await keys.ensure(caller.tenantId);
    const viewerClaims = {
      ...readActionLinkToken(tokenOf(paged.acknowledgeUrl))!.claims,
      recipient: { kind: 'user' as const, id: viewer.id, label: 'v***@example.com' },
    };
    const viewerLink = `${TEST_AUDIENCE}/a/${signActionLinkToken(viewerClaims, key.key)}`;

    const before = await revisionOf(paged.incidentId);
    const cases: [string, string, RegExp][] = [
      ['deactivated acknowledge', links[deactivated.id]!.acknowledgeUrl, /deactivated/],
      ['deleted resolve', links[deleted.id]!.resolveUrl, /no longer a member/],
      ['demoted acknowledge', links[demoted.id]!.acknowledgeUrl, /incidents:write/],
      ['denied resolve', links[denied.id]!.resolveUrl, /incidents:write/],
      ['viewer acknowledge', viewerLink, /incidents:write/],
    ];
    for (const [name, link, why] of cases) {
      const refused = await press(link);
      t.is(refused.status, 403, name);
      t.regex(refused.contentType, /^text\/html/, name);
      t.regex(refused.html, why, name);
      t.is((await open(link)).status, 403, `${name}: the page is refused too`);
      for (const person of people)
        t.false(refused.html.includes(person.id) || refused.html.includes(person.email), `${name} names nobody`);
    }
    t.is(await revisionOf(paged.incidentId), before, 'nothing was acted on or spent');
    t.false(
      (await app.platform.eventStore.readStream(incidentStream(paged.incidentId))).some(
        (e) => e.type === 'IncidentAcknowledged' || e.type === 'IncidentResolved',
      ),
    );
    // The channel's link, paged alike, still acts.
    t.is((await press(paged.acknowledgeUrl)).status, 200);
  },
);

test.serial("a channel recipient's link stops working when the channel is deleted", async (t) => {
  const caller = app.newTenant();
  const address = `team.${caller.tenantId.slice(0, 8)}@example.com`;
  const mail = await created(caller, '/notification-channels', {
    name: 'team mail',
    type: 'email',
    config: { recipients: [address], subject_template: '{{rule_name}}' },
  });
  const paged = await pagedIncident(caller, 'channel rule', [{ type: 'channel', id: mail.id }], 2);
  const links = mailedLinks(address)!;
  t.is((await open(links.resolveUrl)).status, 200, 'works while the channel exists');
  // The policy stops naming the channel, so it may be deleted.
  const policy = await app.request('PUT', `/api/v1/escalation-policies/${paged.policyId}`, {
    caller,
    body: {
      name: 'channel rule policy',
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: paged.webhookChannelId }] }],
    },
  });
  t.is(policy.status, 200, JSON.stringify(policy.body));
  t.is((await app.request('DELETE', `/notification-channels/${mail.id}`, { caller })).status, 200);
  const before = await revisionOf(paged.incidentId);
  const refused = await press(links.resolveUrl);
  t.is(refused.status, 403);
  t.regex(refused.html, /channel .*deleted/);
  t.is(await revisionOf(paged.incidentId), before);
});

test.serial(
  "the confirming POST refuses a cross-site form (Sec-Fetch-Site or a foreign Origin); a mail client's (neither) and the page's own are taken",
  async (t) => {
    const caller = app.newTenant();
    const paged = await pagedIncident(caller, 'cross-site rule');
    const before = await revisionOf(paged.incidentId);
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' } as Record<string, string>,
      { 'sec-fetch-site': 'same-site' },
      { origin: 'http://evil.example' },
      { origin: 'http://evil.example', 'sec-fetch-site': 'same-origin' },
      { origin: 'null' },
    ]) {
      const refused = await press(paged.acknowledgeUrl, { headers });
      t.is(refused.status, 403, JSON.stringify(headers));
      t.regex(refused.contentType, /^text\/html/);
      t.regex(refused.html, /another site/);
    }
    t.is(await revisionOf(paged.incidentId), before, 'nothing changed, nothing spent');
    // The page's own button: same origin (Origin: null as a no-referrer page's form sends it, or the platform's own).
    t.is(
      (await press(paged.acknowledgeUrl, { headers: { origin: 'null', 'sec-fetch-site': 'same-origin' } })).status,
      200,
    );
    const second = await pagedIncident(app.newTenant(), 'own origin rule');
    t.is(
      (await press(second.resolveUrl, { headers: { origin: TEST_AUDIENCE, 'sec-fetch-site': 'same-origin' } })).status,
      200,
    );
  },
);

test.serial(
  'the confirming POST answers its own HTML pages for a body it does not take (415), one over 1 MiB (413); nothing changes',
  async (t) => {
    const caller = app.newTenant();
    const paged = await pagedIncident(caller, 'body rule');
    const before = await revisionOf(paged.incidentId);
    const cases: [string, { headers: Record<string, string>; body: string }, number][] = [
      ['text/plain', { headers: { 'content-type': 'text/plain' }, body: 'hello' }, 415],
      ['malformed JSON', { headers: { 'content-type': 'application/json' }, body: '{"oops' }, 415],
      ['JSON', { headers: { 'content-type': 'application/json' }, body: '{}' }, 415],
      ['a form over 1 MiB', { headers: {}, body: `a=${'x'.repeat(1024 * 1024)}` }, 413],
    ];
    for (const [name, request, status] of cases) {
      const refused = await press(paged.acknowledgeUrl, request);
      t.is(refused.status, status, name);
      t.regex(refused.contentType, /^text\/html/, name);
      t.regex(refused.html, /Nothing was changed/, name);
    }
    t.is(await revisionOf(paged.incidentId), before);
    // A form with fields (the button sends none): read and ignored.
    t.is((await press(paged.acknowledgeUrl, { body: 'extra=1' })).status, 200);
  },
);
