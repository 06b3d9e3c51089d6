/**
 * Manage the paging setup in Chromium (issue 29, "Manage": notification channels and escalation
 * policies): a new user goes channel → policy without typing a UUID. A webhook channel to a loopback
 * receiver (which checks the signature with the secret the page showed once), "Send test" with the
 * receiver's answer on the page, an edit that keeps the masked secret header, a two-stage policy
 * targeting that channel and a user picked by name, the API's validation error beside the field it
 * names (an empty name, a later stage with no delay), a stage reordered, an edit, deletes; axe-core
 * on both pages in each state reached, and screenshots at 1280 and 390 px.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  seriousAccessibilityViolations,
  skipped,
  startDashboard,
  suite,
  type Dashboard,
  sidewaysOverflow,
} from './support/dashboard-browser.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/notify-receivers/webhook-receiver.js';
import { waitFor } from './support/wait-for.js';

let dashboard: Dashboard;
let receiver: WebhookReceiver;
let page: Page;
let signingSecret = '';
let dataDir: string;

test.before(async () => {
  if (skipped) return;
  receiver = await startWebhookReceiver({
    secret: () => signingSecret,
    accept: { status: 200, body: 'thanks from the receiver' },
  });
  dataDir = mkdtempSync(join(tmpdir(), 'ww-dashboard-paging-'));
  dashboard = await startDashboard({ DATA_DIR: dataDir, OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
  await dashboard.api('POST', '/users', {
    email: 'ada@example.com',
    name: 'Ada Oncall',
    role_id: 'responder',
    group_ids: [],
  });
  page = await dashboard.newPage();
  await dashboard.signIn(page);
});

test.after.always(async () => {
  await dashboard?.close();
  await receiver?.stop();
});

async function noSeriousViolations(t: { deepEqual: (a: unknown, b: unknown, m?: string) => void }, state: string) {
  t.deepEqual(await seriousAccessibilityViolations(page), {}, `axe-core, ${state}`);
}

const row = (testId: string, name: string) => page.getByTestId(testId).getByRole('row').filter({ hasText: name });

suite(`a webhook channel: create, send a test and see the downstream answer, edit keeping its secret${skipped}`, async (t) => {
  await page.getByRole('link', { name: 'Channels' }).click();
  await page.getByText('No notification channels yet.').waitFor();
  await page.getByRole('button', { name: 'New channel' }).click();
  const form = page.getByRole('form', { name: 'New channel' });
  await form.getByLabel('Name', { exact: true }).fill('Ops webhook');
  await form.getByLabel('Type').selectOption('webhook');
  await form.getByLabel('URL').fill(`${receiver.url}/hook`);
  await form.getByLabel('Headers').fill('Authorization: Bearer receiver-token-1234');
  await noSeriousViolations(t, 'channel form');
  await form.getByRole('button', { name: 'Create channel' }).click();

  signingSecret = (await page.getByTestId('signing-secret').textContent()) ?? '';
  t.regex(signingSecret, /.{16,}/, 'the signing secret is shown once after creation');
  const listed = row('channels', 'Ops webhook');
  await listed.waitFor();
  t.regex((await listed.textContent()) ?? '', /webhook.*POST http:\/\/127\.0\.0\.1/);

  await listed.getByRole('button', { name: 'Send test' }).click();
  const result = page.getByTestId('channel-test-result');
  await result.getByText('delivered').waitFor();
  const shown = (await result.textContent()) ?? '';
  t.regex(shown, /HTTP 200/, 'the downstream status');
  t.regex(shown, /thanks from the receiver/, 'the downstream answer');
  t.is(receiver.accepted.length, 1, 'the receiver took one signed request');
  t.is(receiver.accepted[0]!.request.headers.authorization, 'Bearer receiver-token-1234');
  await noSeriousViolations(t, 'channels with a test answer');
  t.is(await sidewaysOverflow(page, 360), 0, 'the channels page fits 360 px');
  await dashboard.shots(page, 'paging-channels');

  // Edit: the header comes back masked; saved unchanged it keeps the stored secret.
  await listed.getByRole('button', { name: 'Edit Ops webhook' }).click();
  const edit = page.getByRole('form', { name: 'Edit channel Ops webhook' });
  t.regex(await edit.getByLabel('Headers').inputValue(), /^Authorization: \*{4}1234$/, 'the secret is masked');
  await edit.getByLabel('Name', { exact: true }).fill('Ops webhook (primary)');
  await edit.getByRole('button', { name: 'Save channel' }).click();
  await row('channels', 'Ops webhook (primary)').waitFor();
  await row('channels', 'Ops webhook (primary)').getByRole('button', { name: 'Send test' }).click();
  await waitFor(() => receiver.accepted.length === 2, {
    timeoutMs: 10_000,
    intervalMs: 50,
    message: 'the second test',
  });
  t.is(
    receiver.accepted[1]!.request.headers.authorization,
    'Bearer receiver-token-1234',
    'the masked header kept the stored value',
  );

  // The API's field error beside the field: an email channel without recipients.
  await page.getByRole('button', { name: 'New channel' }).click();
  const bad = page.getByRole('form', { name: 'New channel' });
  await bad.getByLabel('Name', { exact: true }).fill('Nobody');
  await bad.getByLabel('Type').selectOption('email');
  await bad.getByRole('button', { name: 'Create channel' }).click();
  const recipients = bad.getByLabel('Recipients');
  await waitFor(async () => (await recipients.getAttribute('aria-invalid')) === 'true', {
    timeoutMs: 5_000,
    intervalMs: 50,
    message: 'recipients marked invalid',
  });
  t.regex((await bad.locator('[data-path="/config/recipients"]').textContent()) ?? '', /recipient/);
  await noSeriousViolations(t, 'channel form with a field error');
  await bad.getByRole('button', { name: 'Cancel' }).click();
});

suite(`a two-stage policy: targets by name, validation beside the fields, reorder, edit, delete${skipped}`, async (t) => {
  await page.getByRole('link', { name: 'Policies' }).click();
  await page.getByRole('heading', { name: 'Escalation policies' }).waitFor();
  await page.getByRole('button', { name: 'New policy' }).click();
  const form = page.getByRole('form', { name: 'New escalation policy' });
  await form.getByLabel('Stage 1 target 1', { exact: true }).selectOption({ label: 'Ada Oncall' });
  await form.getByRole('button', { name: 'Add stage' }).click();
  await form.getByLabel('Stage 2 target 1', { exact: true }).selectOption({ label: 'Ops webhook (primary)' });
  await form.getByLabel('Stage 2: minutes after the stage before').fill('0');

  // Saved with an empty name and a later stage without delay: the API's errors, each beside its field.
  await form.getByRole('button', { name: 'Create policy' }).click();
  const name = form.getByLabel('Name', { exact: true });
  await waitFor(async () => (await name.getAttribute('aria-invalid')) === 'true', {
    timeoutMs: 5_000,
    intervalMs: 50,
    message: 'the name marked invalid',
  });
  t.truthy(await form.locator('[data-path="/name"]').textContent(), 'the name error is beside the name');
  t.truthy(
    await form.locator('[data-path="/stages/1/delay_minutes"]').textContent(),
    'the delay error is beside stage 2 delay',
  );
  t.is(await form.getByLabel('Stage 2: minutes after the stage before').getAttribute('aria-invalid'), 'true');
  await noSeriousViolations(t, 'policy form with field errors');
  await dashboard.shots(page, 'paging-policy-errors');

  await name.fill('Warehouse on-call');
  await form.getByLabel('Stage 2: minutes after the stage before').fill('15');
  await form.getByRole('button', { name: 'Create policy' }).click();
  const listed = row('policies', 'Warehouse on-call');
  await listed.waitFor();
  t.regex((await listed.textContent()) ?? '', /at once: Ada Oncall \(email\).*after 15 min: Ops webhook \(primary\)/);
  const [stored] = (await dashboard.api('GET', '/api/v1/escalation-policies?limit=10')).filter(
    (p: { name: string }) => p.name === 'Warehouse on-call',
  );
  t.deepEqual(
    stored.stages.map((s: { delay_minutes: number; targets: { type: string }[] }) => [
      s.delay_minutes,
      s.targets[0]!.type,
    ]),
    [
      [0, 'user'],
      [15, 'channel'],
    ],
  );
  await noSeriousViolations(t, 'policies list');
  await dashboard.shots(page, 'paging-policies');

  // Edit: move the channel stage first (it fires at once), add SMS for Ada, rename.
  await listed.getByRole('button', { name: 'Edit Warehouse on-call' }).click();
  const edit = page.getByRole('form', { name: 'Edit policy Warehouse on-call' });
  await edit.getByRole('button', { name: 'Move stage 2 up' }).click();
  t.is(
    await edit.getByLabel('Stage 1 target 1', { exact: true }).locator('option:checked').textContent(),
    'Ops webhook (primary)',
  );
  await edit.getByLabel('Stage 2: minutes after the stage before').fill('10');
  await edit.getByRole('group', { name: 'Stage 2 target 1: notify by' }).getByLabel('sms').check();
  await edit.getByLabel('Name', { exact: true }).fill('Warehouse on-call (v2)');
  await noSeriousViolations(t, 'policy editor');
  t.is(await sidewaysOverflow(page, 360), 0, 'the policy editor fits 360 px');
  await dashboard.shots(page, 'paging-policy-editor');
  await edit.getByRole('button', { name: 'Save policy' }).click();
  const edited = row('policies', 'Warehouse on-call (v2)');
  await edited.waitFor();
  t.regex(
    (await edited.textContent()) ?? '',
    /at once: Ops webhook \(primary\).*after 10 min: Ada Oncall \(email, sms\)/,
  );

  // The channel is still targeted: its delete is refused with the API's reason.
  await page.getByRole('link', { name: 'Channels' }).click();
  const channel = row('channels', 'Ops webhook (primary)');
  await channel.getByRole('button', { name: 'Delete Ops webhook (primary)' }).click();
  await channel.getByRole('button', { name: 'Yes, delete Ops webhook (primary)' }).click();
  await channel.getByRole('alert').waitFor();
  t.regex(
    (await channel.getByRole('alert').textContent()) ?? '',
    /Warehouse on-call \(v2\)/,
    'the refusal names the policy',
  );

  // Delete the policy, then the channel.
  await page.getByRole('link', { name: 'Policies' }).click();
  await edited.getByRole('button', { name: 'Delete Warehouse on-call (v2)' }).click();
  await edited.getByRole('button', { name: 'Yes, delete Warehouse on-call (v2)' }).click();
  await edited.waitFor({ state: 'detached' });
  await page.getByRole('link', { name: 'Channels' }).click();
  await channel.getByRole('button', { name: 'Delete Ops webhook (primary)' }).click();
  await channel.getByRole('button', { name: 'Yes, delete Ops webhook (primary)' }).click();
  await channel.waitFor({ state: 'detached' });
  t.deepEqual(
    (await dashboard.api('GET', '/api/v1/notification-channels')).map((c: { name: string }) => c.name),
    [],
  );
});

suite(`a viewer reads channels and policies but gets no write buttons${skipped}`, async (t) => {
  const role = await dashboard.api('POST', '/api/v1/roles', {
    name: 'paging viewer',
    permissions: {
      'channels:read': 'allow',
      'escalation:read': 'allow',
      'channels:write': 'deny',
      'escalation:write': 'deny',
    },
  });
  const viewer = await dashboard.api('POST', '/users', {
    email: 'vic@example.com',
    name: 'Vic Viewer',
    role_id: role.id,
    group_ids: [],
  });
  const ada = (await dashboard.api('GET', '/api/v1/user-names')).find(
    (user: { name: string }) => user.name === 'Ada Oncall',
  );
  const channel = await dashboard.api('POST', '/api/v1/notification-channels', {
    name: 'ops mail',
    type: 'email',
    config: { recipients: ['ops@example.com'], subject_template: '{{rule_name}}' },
  });
  await dashboard.api('POST', '/api/v1/escalation-policies', {
    name: 'Read-only policy',
    stages: [
      {
        stage_order: 1,
        delay_minutes: 0,
        targets: [
          { type: 'channel', id: channel.id },
          { type: 'user', id: ada.id, channels: ['sms'] },
        ],
      },
    ],
  });
  const viewerPage = await dashboard.newPage();
  await viewerPage.goto(`${dashboard.platform.url}/`);
  await viewerPage.getByRole('textbox', { name: 'Token' }).fill(dashboard.userToken(viewer.id));
  await viewerPage.getByRole('button', { name: 'Use token' }).click();
  await viewerPage.getByRole('link', { name: 'Channels' }).click();
  await viewerPage.getByTestId('channels').getByRole('row').filter({ hasText: 'ops mail' }).waitFor();
  t.is(await viewerPage.getByRole('button', { name: 'New channel' }).count(), 0);
  t.is(await viewerPage.getByRole('button', { name: 'Send test' }).count(), 0);
  t.is(await viewerPage.getByRole('button', { name: /^(Edit|Delete)/ }).count(), 0);
  await viewerPage.getByRole('link', { name: 'Policies' }).click();
  const policy = viewerPage.getByTestId('policies').getByRole('row').filter({ hasText: 'Read-only policy' });
  await policy.waitFor();
  t.regex((await policy.textContent()) ?? '', /at once: ops mail; Ada Oncall \(sms\)/, 'targets by name for a reader');
  t.is(await viewerPage.getByRole('button', { name: 'New policy' }).count(), 0);
  t.is(await viewerPage.getByRole('button', { name: /^(Edit|Delete)/ }).count(), 0);
  await viewerPage.close();
});
