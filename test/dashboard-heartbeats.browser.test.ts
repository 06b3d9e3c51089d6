/**
 * The Heartbeats page in Chromium (issue 38): a heartbeat created from the page shows its ping
 * address once, and the list never again; a ping moves it from "waiting" to "up"; a failed run
 * shows "Failed run: paged" with its message and a link to the incident; a new address replaces the
 * old (the old one is refused), a revoked one reads "revoked". axe-core, no sideways scroll at 360 px.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  seriousAccessibilityViolations,
  sidewaysOverflow,
  skipped,
  startDashboard,
  suite,
  type Dashboard,
} from './support/dashboard-browser.js';

let dashboard: Dashboard;
let page: Page;

test.before(async () => {
  if (skipped) return;
  dashboard = await startDashboard({ DATA_DIR: mkdtempSync(join(tmpdir(), 'ww-dashboard-heartbeats-')) });
  const channel = await dashboard.api('POST', '/api/v1/notification-channels', {
    name: 'ops mail',
    type: 'email',
    config: { recipients: ['ops@example.com'], subject_template: '{{rule_name}}' },
  });
  await dashboard.api('POST', '/api/v1/escalation-policies', {
    name: 'Data on-call',
    stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.id }] }],
  });
  page = await dashboard.newPage();
  await dashboard.signIn(page);
});

test.after.always(async () => {
  await dashboard?.close();
});

const row = (name: string) => page.getByTestId('heartbeats').getByRole('row').filter({ hasText: name });
const ping = (url: string, query = '') =>
  fetch(`${dashboard.platform.url}${new URL(url).pathname}${query}`, { method: 'POST' });

suite(`create from the page, the address shown once; pings, a failed run, a new address and a revoked one${skipped}`, async (t) => {
  await page.getByRole('link', { name: 'Heartbeats' }).click();
  await page.getByText('No heartbeats yet.').waitFor();
  await page.getByRole('button', { name: 'New heartbeat' }).click();
  const form = page.locator('[data-testid="heartbeat-editor"][data-state="ready"]');
  await form.getByLabel('Name').fill('Nightly load');
  await form.getByLabel('Expected every (minutes)').fill('1440');
  await form.getByLabel('Grace before paging (minutes)').fill('30');
  await form.getByLabel('Escalation policy').selectOption({ label: 'Data on-call' });
  t.deepEqual(await seriousAccessibilityViolations(page), {}, 'axe-core, the editor');
  await form.getByRole('button', { name: 'Create heartbeat' }).click();

  const shown = page.getByTestId('heartbeat-address');
  const address = await shown.getByLabel('Ping address').inputValue();
  t.regex(address, /\/hb\/hb_[A-Za-z0-9_-]{43}$/);
  await row('Nightly load').getByTestId('heartbeat-status').filter({ hasText: 'Waiting for the first ping' }).waitFor();
  t.true((await row('Nightly load').textContent())!.includes(`****${address.slice(-4)}`), 'the hint, masked');
  t.deepEqual(await seriousAccessibilityViolations(page), {}, 'axe-core, the address shown');
  t.is(await sidewaysOverflow(page, 360), 0, 'fits 360 px');
  await shown.getByRole('button', { name: 'Done' }).click();
  await page.reload();
  await row('Nightly load').waitFor();
  t.false((await page.content()).includes(address.split('/hb/')[1]!), 'never shown again');

  t.is((await ping(address)).status, 200);
  await page.reload();
  await row('Nightly load').getByTestId('heartbeat-status').filter({ hasText: 'Up' }).waitFor();

  t.is((await ping(address, '?status=fail&message=relation+raw.orders+does+not+exist')).status, 200);
  await page.reload();
  const failed = row('Nightly load');
  await failed.getByTestId('heartbeat-status').filter({ hasText: 'Failed run: paged' }).waitFor();
  await failed.getByText('relation raw.orders does not exist').waitFor();
  t.is(await failed.getByRole('link', { name: 'Open incident' }).count(), 1);

  await failed.getByRole('button', { name: 'New address for Nightly load' }).click();
  const fresh = await page.getByTestId('heartbeat-address').getByLabel('Ping address').inputValue();
  t.not(fresh, address);
  t.is((await ping(address)).status, 404, 'the old address is refused');
  t.is((await ping(fresh)).status, 200, 'the new one works');

  await page.getByRole('button', { name: 'Revoke the address of Nightly load' }).click();
  await page.getByTestId('heartbeats-outcome').filter({ hasText: 'its silence still pages' }).waitFor();
  await row('Nightly load').getByText('revoked').waitFor();
  t.is((await ping(fresh)).status, 404);
  await dashboard.shots(page, 'heartbeats');
});
