/**
 * The dashboard in a real browser: Debian's Chromium driven by playwright-core against the real
 * platform (built-in identity provider, simulated warehouse) on a random port. Signs in with the
 * development client, watches an incident arrive live after the simulator pins a metric,
 * acknowledges it, slides its history back to the trigger, watches the sync page tick twice
 * without a reload, and checks that a viewer's action buttons are disabled. A screenshot of every
 * page goes to test/artifacts/ (ignored by git). Every wait is a condition with a deadline.
 *
 * Without Chromium at /usr/bin/chromium (`apt-get install chromium`; .ci/run installs it) the
 * test is skipped and its title says why.
 */
import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { issueToken } from '../src/auth/embedded-idp.js';
import { loadOrCreateSigningKey } from '../src/auth/signing-key.js';
import { loadConfig } from '../src/config.js';
import { startPlatform, type RunningPlatform } from '../src/platform.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), 'artifacts');
/** Any audience works: the page reads it from /dashboard/config.json. */
const BASE_URL = 'http://localhost:4324';
const DEADLINE_MS = 15_000;

const suite = existsSync(CHROMIUM) ? test.serial : test.serial.skip;
const skipped = existsSync(CHROMIUM) ? '' : ` (skipped: no Chromium at ${CHROMIUM}; apt-get install chromium)`;

let platform: RunningPlatform;
let browser: Browser;
let page: Page;
let dataDir: string;
let token: string;

async function api(method: string, path: string, body?: unknown, bearer = token) {
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await response.json()) as { data: any };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(parsed)}`);
  return parsed.data;
}

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

test.before(async () => {
  if (skipped) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'ww-dashboard-'));
  platform = await startPlatform(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ALERT_EVALUATION_INTERVAL_SECONDS: '1',
      SSE_HEARTBEAT_SECONDS: '1',
      SYNC_STREAM_PERIOD_SECONDS: '1',
      SYNC_SCHEDULER: 'off',
    }),
  );
  const client = platform.devClient!;
  const issued = await fetch(`${platform.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      audience: BASE_URL,
    }),
  });
  token = ((await issued.json()) as { access_token: string }).access_token;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(DEADLINE_MS);
});

test.after.always(async () => {
  await browser?.close();
  await platform?.stop();
});

suite(`sign in with the development client${skipped}`, async (t) => {
  await page.goto(`${platform.url}/`);
  await shot('sign-in');
  const client = platform.devClient!;
  // The line `npm start` prints, pasted whole, fills both fields.
  await page.getByLabel('Client id').fill(`client_id=${client.client_id}  client_secret=${client.client_secret}`);
  t.is(await page.getByLabel('Client secret').inputValue(), client.client_secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByTestId('principal')
    .filter({ hasText: `client:${client.client_id} (client)` })
    .waitFor();
  t.is(
    await page.evaluate(() => (globalThis as any).sessionStorage.getItem('warehouse-watch.token')?.split('.').length),
    3,
    'the token is kept in sessionStorage',
  );
  for (const title of ['Incidents', 'On call', 'Sync', 'Warehouse', 'Alert rules'])
    t.true(await page.getByRole('link', { name: title }).isVisible(), title);
});

suite(`an incident appears live when the simulator pins a metric, and is acknowledged from the page${skipped}`, async (t) => {
  await page.goto(`${platform.url}/#/incidents`);
  await page.getByTestId('no-incidents').waitFor();
  await page.locator('[data-feed-state="live"]').waitFor();
  // Nothing was reloaded for what follows: a marker on the window survives only without a reload.
  await page.evaluate(() => ((globalThis as any).sameDocument = true));

  const channel = await api('POST', '/api/v1/notification-channels', {
    name: 'ops',
    type: 'email',
    config: { recipients: ['ops@example.com'], subject_template: '{{rule_name}}' },
  });
  const policy = await api('POST', '/api/v1/escalation-policies', {
    name: 'ops',
    stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.id }] }],
  });
  const rule = await api('POST', '/api/v1/alert-rules', {
    name: 'Queue wait',
    metric: 'queue_time_seconds',
    condition: 'gt',
    threshold: 30,
    evaluation_window_minutes: 0,
    severity: 'high',
    escalation_policy_id: policy.id,
  });
  await api('POST', '/api/v1/simulator/metrics', { metric: 'queue_time_seconds', value: 95, duration_seconds: 3600 });

  const row = page.locator('tr[data-incident-id]');
  await row.filter({ hasText: 'Queue wait' }).waitFor();
  const incidentId = (await row.getAttribute('data-incident-id'))!;
  t.is(await row.getAttribute('data-status'), 'triggered');
  t.true(await page.evaluate(() => (globalThis as any).sameDocument === true), 'the incident arrived without a reload');
  await shot('incidents');

  await row.getByRole('button', { name: 'Acknowledge' }).click();
  await page.locator(`tr[data-incident-id="${incidentId}"][data-status="acknowledged"]`).waitFor();
  t.is((await api('GET', `/api/v1/incidents/${incidentId}`)).status, 'acknowledged');
  t.is(
    await row.getByRole('button', { name: 'Acknowledge' }).count(),
    0,
    'an acknowledged incident offers resolve only',
  );

  // The incident page: its history, and the slider back at the trigger shows it triggered.
  await row.getByRole('link', { name: 'Queue wait' }).click();
  await page.getByTestId('timeline').getByText('IncidentAcknowledged').waitFor();
  const slider = page.getByLabel('moment');
  await page.locator('.as-of [data-testid="incident-summary"][data-status="acknowledged"]').waitFor();
  await slider.fill((await slider.getAttribute('min')) ?? '0');
  await page.locator('.as-of [data-testid="incident-summary"][data-status="triggered"]').waitFor();
  await page.getByLabel('note').fill('looking at the queue');
  await page.getByRole('button', { name: 'Add note' }).click();
  await page.getByTestId('timeline').getByText('looking at the queue').waitFor();
  await shot('incident');
  t.is(rule.name, 'Queue wait');
});

suite(`the sync page updates from the stream twice without a reload${skipped}`, async (t) => {
  await page.goto(`${platform.url}/#/sync`);
  const updates = page.getByTestId('sync-updates');
  await page.locator('[data-testid="sync-updates"]:not([data-updates="0"])').waitFor();
  await page.evaluate(() => ((globalThis as any).syncPageMarker = true));
  const first = Number(await updates.getAttribute('data-updates'));
  const firstText = await updates.textContent();
  await page.waitForFunction(
    (from) =>
      Number(
        (globalThis as any).document.querySelector('[data-testid="sync-updates"]')?.getAttribute('data-updates'),
      ) >=
      from + 2,
    first,
    { timeout: DEADLINE_MS },
  );
  t.not(await updates.textContent(), firstText);
  t.true(await page.evaluate(() => (globalThis as any).syncPageMarker === true), 'no reload in between');
  t.is(await page.locator('tr[data-job-id]').count(), 5);

  // Pause from the page: the next update shows it.
  await page.locator('tr[data-job-id="alert_events"]').getByRole('button', { name: 'Pause' }).click();
  await page.locator('tr[data-job-id="alert_events"][data-status="paused"]').waitFor();
  await shot('sync');
});

suite(`the on-call, warehouse and alert-rule pages show their data${skipped}`, async (t) => {
  const user = await api('POST', '/users', {
    email: 'ada@example.com',
    name: 'Ada Oncall',
    role_id: 'responder',
    group_ids: [],
  });
  await api('POST', '/schedules', {
    name: 'Warehouse primary',
    timezone: 'Europe/Berlin',
    layers: [{ user_ids: [user.id], rotation_type: 'weekly', start_time: '2026-01-05T09:00:00' }],
  });
  await page.goto(`${platform.url}/#/oncall`);
  await page.getByText('On call now: Ada Oncall').waitFor();
  await page.locator('svg.oncall-timeline rect.segment').first().waitFor();
  await shot('oncall');

  await page.goto(`${platform.url}/#/warehouse`);
  await page.getByTestId('storage-totals').waitFor();
  await page.getByTestId('slow-queries').waitFor();
  await page.locator('.queue-waits svg.sparkline').waitFor();
  t.true((await page.locator('svg.bar-chart').count()) >= 2, 'storage charts');
  await shot('warehouse');

  await page.goto(`${platform.url}/#/alert-rules`);
  const ruleRow = page.locator('tr[data-rule-id]').filter({ hasText: 'Queue wait' });
  await ruleRow.locator('svg.sparkline').waitFor();
  await ruleRow.getByRole('button', { name: 'Disable' }).click();
  await page.locator('tr[data-rule-id][data-enabled="false"]').waitFor();
  await shot('alert-rules');
});

suite(`a viewer (pasted token) sees the actions it may not take disabled${skipped}`, async (t) => {
  const viewer = await api('POST', '/users', {
    email: 'vic@example.com',
    name: 'Vic Viewer',
    role_id: 'viewer',
    group_ids: [],
  });
  const client = platform.devClient!;
  const viewerToken = issueToken(loadOrCreateSigningKey(join(dataDir, 'idp-signing-key.pem')), {
    issuer: BASE_URL,
    audience: BASE_URL,
    subject: viewer.id,
    claims: { tenant_id: client.tenant_id, env_id: client.env_id, user_id: viewer.id },
  });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('textbox', { name: 'Token' }).fill(viewerToken);
  await page.getByRole('button', { name: 'Use token' }).click();
  await page.getByTestId('principal').filter({ hasText: 'Vic Viewer (user)' }).waitFor();
  await page.goto(`${platform.url}/#/sync`);
  const pause = page.locator('tr[data-job-id="query_history"]').getByRole('button', { name: 'Pause' });
  await pause.waitFor();
  t.true(await pause.isDisabled());
  t.is(await pause.getAttribute('title'), 'needs the permission sync:write');
  t.true(await page.getByRole('button', { name: 'Run all active jobs' }).isDisabled());
  t.false(await page.getByRole('link', { name: 'Alert rules' }).isHidden(), 'a viewer reads alert rules');
});
