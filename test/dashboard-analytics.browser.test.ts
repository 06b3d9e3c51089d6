/**
 * The analytics page in Chromium: the scripted history of test/support/analytics-history.ts, with
 * the browser's clock set to the end of its range (the page asks for "the last N days"), shows the
 * numbers the API answers: the rule table, the noisiest rules and on-call health, and its SVG charts.
 */
import type { Page } from 'playwright-core';
import { scriptHistory } from './support/analytics-history.js';
import {
  seriousAccessibilityViolations,
  skipped,
  startDashboard,
  suite,
  type Dashboard,
} from './support/dashboard-browser.js';
import test from 'ava';

let dashboard: Dashboard;
let page: Page;
test.before(async () => {
  dashboard = await startDashboard();
  const me = await dashboard.api('GET', '/api/v1/me');
  await scriptHistory({
    tenantId: me.principal.tenant_id,
    envId: me.principal.env_id,
    platform: dashboard.platform,
    create: (path, body) => dashboard.api('POST', path, body),
  });
  page = await dashboard.newPage();
  // The history is in spring 2026: the page's "last 14 days" must end where the history's range does.
  await page.clock.setFixedTime(new Date('2026-04-06T00:00:00Z'));
  await dashboard.signIn(page);
});
test.after.always(async () => dashboard?.close());

suite(`the analytics page shows the history's numbers per rule, the noisiest rules and on-call health, with SVG charts${skipped}`, async (t) => {
  await page.evaluate(() => void ((globalThis as any).location.hash = '#/analytics'));
  await page.getByTestId('analytics-groups').getByText('disk full').waitFor();
  await page.getByLabel('Last').selectOption('14');
  await page.getByTestId('analytics-oncall').getByText('alice').waitFor();
  // The 14-day range drops the incident of 20 March: 3 incidents of disk full.
  await page
    .getByTestId('analytics-groups')
    .locator('tbody tr', { hasText: 'disk full' })
    .locator('td', { hasText: /^3$/ })
    .first()
    .waitFor();
  const row = (testId: string, text: string) =>
    page.getByTestId(testId).locator('tbody tr', { hasText: text }).locator('td').allInnerTexts();
  const disk = await row('analytics-groups', 'disk full');
  t.deepEqual(disk.slice(0, 3), ['disk full', '3', '2']);
  t.is(disk[3], '3 (2)', 'resolved (auto)');
  t.is(disk[4], '13 min / 20 min', 'MTTA 750 s, p90 1200 s, in minutes');
  t.deepEqual(disk.slice(6), ['1', '3', '1'], 'stage ≥ 2, pages, failed pages');
  t.deepEqual((await row('analytics-noisiest', 'disk full')).slice(1), ['3', '1.5', '1 (33 %)']);
  await page.getByTestId('analytics-oncall').getByText('bob').waitFor();
  t.deepEqual((await row('analytics-oncall', 'bob')).slice(1), ['3', '2', 'Europe/Berlin (schedule), UTC (utc)', '9']);
  t.is(await page.locator('svg.bar-chart').count(), 2);
  await page.getByLabel('Group by').selectOption('severity');
  await page.getByTestId('analytics-groups').getByText('critical').waitFor();
  t.deepEqual(await page.getByTestId('analytics-groups').locator('tbody tr td:first-child').allInnerTexts(), [
    'critical',
    'medium',
  ]);
  t.deepEqual(await seriousAccessibilityViolations(page), {});
  await dashboard.shots(page, 'page-analytics');
});
