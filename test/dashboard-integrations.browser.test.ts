/**
 * The Integrations page in Chromium (issue 40): an integration created from the page shows its
 * Events API URL and routing key once, each with a copy button that puts it on the clipboard, and
 * the list only the masked hint after; triggers sent to the key show under "Received" (the
 * incident per dedup key with its alert count) and as the integration's count; a new key replaces
 * the old (which keeps working for its grace day), a revoked key is refused; "Page someone" opens
 * a manual incident on a policy. axe-core, no sideways scroll at 360 px.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  BASE_URL,
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
  dashboard = await startDashboard({ DATA_DIR: mkdtempSync(join(tmpdir(), 'ww-dashboard-integrations-')) });
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
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: dashboard.platform.url });
  await dashboard.signIn(page);
});

test.after.always(async () => {
  await dashboard?.close();
});

const row = (name: string) => page.getByTestId('integrations').getByRole('row').filter({ hasText: name });
const trigger = (routingKey: string, dedupKey: string) =>
  fetch(`${dashboard.platform.url}/v2/enqueue`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      routing_key: routingKey,
      event_action: 'trigger',
      dedup_key: dedupKey,
      payload: { summary: `${dedupKey} failed`, source: 'airflow', severity: 'error' },
    }),
  });

suite(`create from the page, the URL and key shown once and copied; what it received; a new key, a revoked one; page someone${skipped}`, async (t) => {
  await page.getByRole('link', { name: 'Integrations' }).click();
  await page.getByText('No integrations yet.').waitFor();
  await page.getByRole('button', { name: 'New integration' }).click();
  const form = page.locator('[data-testid="integration-editor"][data-state="ready"]');
  await form.getByLabel('Name').fill('Airflow');
  await form.getByLabel('Sent by').selectOption('events_v2');
  await form.getByLabel('Escalation policy').selectOption({ label: 'Data on-call' });
  t.deepEqual(await seriousAccessibilityViolations(page), {}, 'axe-core, the editor');
  await form.getByRole('button', { name: 'Create integration' }).click();

  const shown = page.getByTestId('integration-key');
  const url = await shown.getByRole('textbox', { name: 'Events API URL' }).inputValue();
  const key = await shown.getByRole('textbox', { name: 'Routing key' }).inputValue();
  t.is(url, `${BASE_URL}/v2/enqueue`, "the deployment's public address");
  t.regex(key, /^[0-9a-f]{32}$/);
  await shown.getByRole('button', { name: 'Copy the routing key' }).click();
  await shown.getByText('Copied').waitFor();
  t.is(await page.evaluate(() => navigator.clipboard.readText()), key, 'the key is on the clipboard');
  await shown.getByRole('button', { name: 'Copy the events API URL' }).click();
  t.is(await page.evaluate(() => navigator.clipboard.readText()), url);
  await row('Airflow')
    .getByTestId('integration-key-hint')
    .filter({ hasText: `****${key.slice(-4)}` })
    .waitFor();
  t.deepEqual(await seriousAccessibilityViolations(page), {}, 'axe-core, the key shown');
  t.is(await sidewaysOverflow(page, 360), 0, 'fits 360 px');
  await shown.getByRole('button', { name: 'Done' }).click();
  await page.reload();
  await row('Airflow').waitFor();
  t.false((await page.content()).includes(key), 'never shown again');

  for (const dedupKey of ['etl-load', 'etl-load', 'etl-load', 'etl-publish'])
    t.is((await trigger(key, dedupKey)).status, 202);
  await page.reload();
  await row('Airflow').getByTestId('integration-last-event').filter({ hasText: '4 received' }).waitFor();
  await row('Airflow').getByRole('button', { name: 'Received by Airflow' }).click();
  const alerts = page.getByTestId('integration-alerts');
  const load = alerts.getByRole('row').filter({ hasText: 'etl-load failed' });
  await load.waitFor();
  t.is((await load.getByRole('cell').nth(2).textContent())?.trim(), '3', 'three triggers, one incident');
  await alerts.getByRole('row').filter({ hasText: 'etl-publish failed' }).waitFor();
  t.deepEqual(await seriousAccessibilityViolations(page), {}, 'axe-core, what it received');

  await row('Airflow').getByRole('button', { name: 'New key for Airflow' }).click();
  const fresh = await page.getByTestId('integration-key').getByRole('textbox', { name: 'Routing key' }).inputValue();
  t.not(fresh, key);
  await page.getByTestId('integrations-outcome').filter({ hasText: 'the old one works for one more day' }).waitFor();
  t.is((await trigger(key, 'etl-load')).status, 202, 'the old key works through its grace');
  t.is((await trigger(fresh, 'etl-load')).status, 202, 'the new one works');
  await row('Airflow').getByText('the previous key works until').waitFor();

  await page.getByRole('button', { name: 'Revoke the key of Airflow' }).click();
  await page.getByTestId('integrations-outcome').filter({ hasText: 'its senders are refused' }).waitFor();
  await row('Airflow').getByTestId('integration-key-hint').filter({ hasText: 'revoked' }).waitFor();
  t.is((await trigger(fresh, 'etl-load')).status, 400);
  t.is(await page.getByTestId('integration-key').count(), 0, 'a revoked key is no longer shown');

  await page.getByRole('button', { name: 'Page someone' }).click();
  const paging = page.getByTestId('page-someone');
  await paging.getByLabel('What is wrong').fill('Orders dashboard shows yesterday');
  await paging.getByLabel('Who: escalation policy').selectOption({ label: 'Data on-call' });
  t.deepEqual(await seriousAccessibilityViolations(page), {}, 'axe-core, page someone');
  await paging.getByRole('button', { name: 'Page now' }).click();
  await page
    .getByTestId('integrations-outcome')
    .getByRole('link', { name: 'Orders dashboard shows yesterday' })
    .waitFor();
  const manual = await dashboard.api('GET', '/api/v1/incidents?source=manual');
  t.deepEqual(
    manual.map((incident: any) => [incident.title, incident.status]),
    [['Orders dashboard shows yesterday', 'triggered']],
  );
  await dashboard.shots(page, 'integrations');
});
