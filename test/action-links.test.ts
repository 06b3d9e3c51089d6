/**
 * Action links, the pure parts: the token (signed, compact, every altered byte refused), what each
 * medium's message carries when a page has links, the pages' escaping and script-free policy, who
 * may still act on a link, and which confirming requests count as another site's.
 */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { isCrossSite } from '../src/action-links/confirm-request.js';
import { linkRecipientOf } from '../src/action-links/issue.js';
import { userRefusal } from '../src/action-links/recipient-standing.js';
import { effectivePermissions } from '../src/auth/effective-permissions.js';
import { ACTION_PAGE_CSP, confirmationPage, refusalPage } from '../src/action-links/page.js';
import {
  readActionLinkToken,
  signActionLinkToken,
  verifyActionLinkToken,
  type ActionLinkClaims,
} from '../src/action-links/token.js';
import { alertTextBody } from '../src/gateways/notify/alert-text.js';
import { chatMessage } from '../src/gateways/notify/chat-message.js';
import { smsText } from '../src/gateways/notify/sms-adapter.js';
import { webhookPayload } from '../src/gateways/notify/webhook-payload.js';
import { alertMessage } from './support/notify-receivers/alert-fixture.js';

const key = { key: randomBytes(32), generation: 3 };
const NOW = 1_780_000_000;
const claims: ActionLinkClaims = {
  tenantId: '11111111-1111-4111-8111-111111111111',
  incidentId: '22222222-2222-4222-8222-222222222222',
  linkId: '33333333-3333-4333-8333-333333333333',
  action: 'resolve',
  keyGeneration: 3,
  expiresAt: NOW + 3600,
  recipient: { kind: 'channel', id: '44444444-4444-4444-8444-444444444444', label: 'o***@example.com' },
};

test('a token reads back as signed, and is short enough for an SMS', (t) => {
  const token = signActionLinkToken(claims, key.key);
  t.true(token.length < 160, `${token.length} characters`);
  t.regex(token, /^[A-Za-z0-9_-]+$/);
  t.deepEqual(verifyActionLinkToken(token, key, NOW), { ok: true, claims });
});

test('every altered byte, another key, an older key and the expiry are refused', (t) => {
  const token = signActionLinkToken(claims, key.key);
  const bytes = Buffer.from(token, 'base64url');
  for (let i = 0; i < bytes.length; i++) {
    const altered = Buffer.from(bytes);
    altered[i]! ^= 0x01;
    t.false(verifyActionLinkToken(altered.toString('base64url'), key, NOW).ok, `byte ${i}`);
  }
  t.like(verifyActionLinkToken(token, { key: randomBytes(32), generation: 3 }, NOW), { ok: false, reason: 'tampered' });
  t.like(verifyActionLinkToken(token, { ...key, generation: 4 }, NOW), { ok: false, reason: 'revoked' });
  t.like(verifyActionLinkToken(token, null, NOW), { ok: false, reason: 'tampered' });
  t.like(verifyActionLinkToken(token, key, NOW + 3600), { ok: false, reason: 'expired' });
  t.like(verifyActionLinkToken('x'.repeat(40), key, NOW), { ok: false, reason: 'malformed' });
  t.like(verifyActionLinkToken(`${token}A`, key, NOW), { ok: false });
  t.is(readActionLinkToken('not a token'), null);
});

test('who a link acts as: a user by id with the masked address, a channel by its masked address or id; pagers get no links', (t) => {
  const user = {
    key: 'user:55555555-5555-4555-8555-555555555555',
    via: { type: 'user' as const, id: '55555555-5555-4555-8555-555555555555' },
    unreachable: null,
  };
  t.deepEqual(linkRecipientOf({ ...user, medium: 'sms' }, { medium: 'sms', phone: '+447700900123' }), {
    kind: 'user',
    id: '55555555-5555-4555-8555-555555555555',
    label: '+44*******123',
  });
  t.deepEqual(
    linkRecipientOf({ ...user, medium: 'email' }, { medium: 'email', config: { recipients: ['pat@example.com'] } }),
    { kind: 'user', id: '55555555-5555-4555-8555-555555555555', label: 'p***@example.com' },
  );
  const channel = {
    key: `channel:${claims.recipient.id}`,
    via: { type: 'channel' as const, id: claims.recipient.id },
    unreachable: null,
  };
  t.deepEqual(
    linkRecipientOf(
      { ...channel, medium: 'email' },
      {
        medium: 'email',
        channelId: claims.recipient.id,
        config: { recipients: ['ops@example.com', 'db@example.com'] },
      },
    )!.label,
    'o***@example.com, d***@example.com',
  );
  t.is(
    linkRecipientOf(
      { ...channel, medium: 'webhook' },
      {
        medium: 'webhook',
        channelId: claims.recipient.id,
        config: { url: 'https://x.test', method: 'POST' },
        signingSecret: 's',
      },
    )!.label,
    `channel:${claims.recipient.id}`,
  );
  t.is(
    linkRecipientOf(
      { ...channel, medium: 'pager' },
      { medium: 'pager', channelId: claims.recipient.id, config: { integration_key: 'k', severity_mapping: {} } },
    ),
    null,
  );
});

const actions = {
  acknowledgeUrl: 'https://watch.example.com/a/ACK',
  resolveUrl: 'https://watch.example.com/a/RES',
  expiresAt: '2026-03-02T11:59:30.000Z',
};

test('a page with links: chat gets Acknowledge/Resolve URL buttons and the links in its text; email, SMS and webhook carry them', (t) => {
  const chat = chatMessage(alertMessage({ actions }));
  t.deepEqual(
    chat.blocks.find((block) => block.type === 'actions'),
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: 'acknowledge',
          text: { type: 'plain_text', text: 'Acknowledge' },
          style: 'primary',
          url: actions.acknowledgeUrl,
        },
        {
          type: 'button',
          action_id: 'resolve',
          text: { type: 'plain_text', text: 'Resolve' },
          url: actions.resolveUrl,
        },
      ],
    },
  );
  t.true(chat.text.endsWith(`<${actions.acknowledgeUrl}|Acknowledge> · <${actions.resolveUrl}|Resolve>`));
  t.is(
    chatMessage(alertMessage()).blocks.find((block) => block.type === 'actions'),
    undefined,
    'no links, no buttons',
  );

  const text = alertTextBody(alertMessage({ actions }));
  t.true(text.includes(`Acknowledge:       ${actions.acknowledgeUrl}\nResolve:           ${actions.resolveUrl}`));
  t.false(alertTextBody(alertMessage()).includes('Acknowledge:'));
  t.true(smsText(alertMessage({ actions })).endsWith(` ACK: ${actions.acknowledgeUrl} RESOLVE: ${actions.resolveUrl}`));
  t.deepEqual(webhookPayload(alertMessage({ actions }), 'd').actions, {
    acknowledge_url: actions.acknowledgeUrl,
    resolve_url: actions.resolveUrl,
    expires_at: actions.expiresAt,
  });
  t.false('actions' in webhookPayload(alertMessage(), 'd'));
});

test('the pages escape what they show and hold no script', (t) => {
  const html = confirmationPage(
    { ruleName: '<b>x</b><script>alert(1)</script>', severity: 'high', status: 'triggered', clusterId: null },
    'acknowledge',
    '"><img src=x>',
    new Date(NOW * 1000),
  );
  t.false(/<script|<b>|<img/i.test(html));
  t.true(html.includes('&lt;b&gt;x&lt;/b&gt;&lt;script&gt;'));
  t.true(html.includes('&quot;&gt;&lt;img src=x&gt;'));
  t.regex(html, /<form method="post"><button type="submit">Acknowledge as/);
  t.false(/<script/i.test(refusalPage('<script>', '<script>')));
  t.regex(ACTION_PAGE_CSP, /default-src 'none'/);
  t.notRegex(ACTION_PAGE_CSP, /script-src/);
});

test('a user recipient may act only when active and allowed incidents:write, by the levels the API resolves', (t) => {
  const levels = (overrides: Record<string, 'allow' | 'deny'>, role: Record<string, 'allow' | 'deny'>) =>
    effectivePermissions({ overrides, groups: [], roles: [{ id: 'r', permissions: role }], tenantDefaults: {} });
  const writer = levels({}, { 'incidents:write': 'allow' });
  t.is(userRefusal({ standing: 'active', effective: writer }), null);
  t.is(userRefusal({ standing: 'deactivated', effective: writer }), 'recipient_inactive');
  t.is(userRefusal({ standing: 'removed', effective: writer }), 'recipient_gone');
  t.is(userRefusal({ standing: 'no_record', effective: writer }), 'recipient_gone');
  t.is(
    userRefusal({ standing: 'active', effective: levels({}, { 'incidents:read': 'allow' }) }),
    'recipient_not_allowed',
  );
  t.is(
    userRefusal({
      standing: 'active',
      effective: levels({ 'incidents:write': 'deny' }, { 'incidents:write': 'allow' }),
    }),
    'recipient_not_allowed',
    'a deny override wins over the role',
  );
});

test("a confirming request is another site's by Sec-Fetch-Site or a foreign Origin; with neither (a mail client) it is not", (t) => {
  const own = ['https://watch.example', 'http://127.0.0.1:3000'];
  const cases: [{ origin?: string; fetchSite?: string }, boolean][] = [
    [{}, false],
    [{ fetchSite: 'same-origin' }, false],
    [{ fetchSite: 'none' }, false],
    [{ origin: 'https://watch.example' }, false],
    [{ origin: 'http://127.0.0.1:3000', fetchSite: 'same-origin' }, false],
    [{ origin: 'null', fetchSite: 'same-origin' }, false],
    [{ fetchSite: 'cross-site' }, true],
    [{ fetchSite: 'same-site' }, true],
    [{ origin: 'https://evil.example' }, true],
    [{ origin: 'https://watch.example.evil.example' }, true],
    [{ origin: 'https://evil.example', fetchSite: 'same-origin' }, true],
    [{ origin: 'https://watch.example', fetchSite: 'cross-site' }, true],
    [{ origin: 'null' }, true],
    [{ origin: 'null', fetchSite: 'cross-site' }, true],
  ];
  for (const [headers, crossSite] of cases) t.is(isCrossSite(headers, own), crossSite, JSON.stringify(headers));
});
