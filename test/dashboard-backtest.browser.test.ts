/**
 * "Would it have fired?" beside the rule editor in Chromium (issue 30): a new, unsaved rule that the
 * simulated warehouse's history breaches now and then is backtested over the last 24 hours; the
 * chart shows the threshold and the would-be incidents, and the counts are what the API answers for
 * the same body and range (the test asks it too). A threshold nothing reaches gives no incident; a
 * refused draft (blank threshold) marks the field and runs nothing. axe-core, no sideways scroll at
 * 360 px, screenshots at 1280 and 390 px.
 */
import type { Page } from 'playwright-core';
import test from 'ava';
import {
  seriousAccessibilityViolations,
  skipped,
  startDashboard,
  suite,
  type Dashboard,
} from './support/dashboard-browser.js';

let dashboard: Dashboard;
let page: Page;

test.before(async () => {
  if (skipped) return;
  dashboard = await startDashboard();
  page = await dashboard.newPage();
});

test.after.always(async () => {
  await dashboard?.close();
});

const METRIC = 'cpu_utilization_pct';

suite(`backtest an unsaved rule over 24 hours: chart, counts as the API answers, no incident above the peak, a refused draft${skipped}`, async (t) => {
  const { api } = dashboard;
  const channel = await api('POST', '/api/v1/notification-channels', {
    name: 'ops mail',
    type: 'email',
    config: { recipients: ['ops@example.com'], subject_template: '{{rule_name}}' },
  });
  const policy = await api('POST', '/api/v1/escalation-policies', {
    name: 'Night shift',
    stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.id }] }],
  });
  const rule = (threshold: number | string) => ({
    name: 'CPU busy',
    metric: METRIC,
    condition: 'gt',
    threshold,
    evaluation_window_minutes: 0,
    severity: 'high',
    escalation_policy_id: policy.id,
    cluster_id: null,
  });
  // A threshold the last day's history crosses both ways: the middle of its distinct readings (a
  // plain median can be the ceiling of 100 % a busy cluster sits at, which nothing exceeds).
  const until = Math.floor(Date.now() / 60_000) * 60_000;
  const probe = await api('POST', '/api/v1/alert-rules/backtest', {
    rule: rule(0),
    since: new Date(until - 86_400_000).toISOString(),
    until: new Date(until).toISOString(),
    include_readings: true,
  });
  const values = [
    ...new Set((probe.readings as { value: number | null }[]).flatMap((r) => (r.value === null ? [] : [r.value]))),
  ].sort((a, b) => a - b);
  t.true(values.length > 1, 'the simulated history varies');
  const median = Math.floor(values[Math.floor(values.length / 2)]! * 100) / 100;
  const above = Math.ceil(values.at(-1)! + 10);

  await dashboard.signIn(page);
  await page.goto(`${dashboard.platform.url}/#/alert-rules`);
  await page.getByRole('button', { name: 'New rule' }).click();
  const form = page.getByTestId('rule-editor');
  await form.getByLabel('Metric').locator('option', { hasText: METRIC }).waitFor({ state: 'attached' });
  await form
    .getByLabel('Escalation policy')
    .locator('option', { hasText: 'Night shift' })
    .waitFor({ state: 'attached' });
  await form.getByLabel('Name', { exact: true }).fill('CPU busy');
  await form.getByLabel('Metric').selectOption(METRIC);
  await form.getByLabel('Threshold', { exact: true }).fill(String(median));
  await form.getByLabel('Window (minutes)').fill('0');
  await form.getByLabel('Escalation policy').selectOption({ label: 'Night shift' });

  const panel = page.getByTestId('rule-backtest');
  await panel.getByLabel('Range').selectOption('24h');
  const run = async () => {
    await panel.getByRole('button', { name: 'Run backtest' }).click();
    await page.locator('[data-testid="rule-backtest"]:not([data-state="running"])').waitFor();
  };
  const counts = async () =>
    Object.fromEntries(
      await panel
        .locator('[data-count]')
        .evaluateAll((cells) =>
          cells.map((c) => [c.getAttribute('data-count'), Number(c.textContent!.replace(/[^\d]/g, ''))]),
        ),
    );
  const apiAnswer = async (threshold: number) => {
    const [since, until] = [await panel.getAttribute('data-since'), await panel.getAttribute('data-until')];
    t.is(Date.parse(until!) - Date.parse(since!), 86_400_000, 'the last 24 hours');
    return api('POST', '/api/v1/alert-rules/backtest', { rule: rule(threshold), since, until });
  };

  await run();
  await panel.getByTestId('backtest-chart').waitFor();
  const expected = await apiAnswer(median);
  t.true(expected.incidents.length > 0, 'the median is crossed: would-be incidents');
  t.deepEqual(await counts(), {
    evaluations: expected.evaluations,
    breaches: expected.breaches,
    incidents: expected.incidents.length,
    pages: expected.pages,
  });
  t.is(await panel.getByTestId('backtest-threshold').count(), 1, 'the threshold line');
  t.is(await panel.getByTestId('backtest-incident').count(), expected.incidents.length, 'a shaded span per incident');
  t.is(await panel.locator('[data-testid="backtest-incidents"] tbody tr').count(), expected.incidents.length);
  t.regex(
    await panel.getByTestId('backtest-summary').innerText(),
    new RegExp(`${expected.incidents.length} would-be incident`),
  );
  t.regex((await panel.locator('svg desc').textContent())!, /would-be incident/, 'the chart describes itself');
  t.deepEqual(await api('GET', '/api/v1/alert-rules?limit=200'), [], 'a backtest saves nothing');
  t.deepEqual(await seriousAccessibilityViolations(page), {}, 'the editor with the backtest');
  await page.setViewportSize({ width: 360, height: 800 });
  t.true(
    await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= 360),
    'no sideways scroll at 360 px',
  );
  await page.setViewportSize({ width: 1280, height: 800 });
  await dashboard.shots(page, 'rule-backtest');

  // Above every reading: it never breaches.
  await form.getByLabel('Threshold', { exact: true }).fill(String(above));
  await run();
  await panel.getByTestId('backtest-no-incidents').waitFor();
  const never = await apiAnswer(above);
  t.like(never, { breaches: 0, incidents: [] });
  t.deepEqual(await counts(), { evaluations: never.evaluations, breaches: 0, incidents: 0, pages: 0 });
  t.is(await panel.getByTestId('backtest-incident').count(), 0);

  // A blank threshold: the API refuses the draft; its error is beside the field and nothing is charted.
  await form.getByLabel('Threshold', { exact: true }).fill('');
  await run();
  const thresholdError = form.locator('.field-error[data-path="/threshold"]');
  await thresholdError.waitFor();
  t.is(
    await form.getByLabel('Threshold', { exact: true }).getAttribute('aria-describedby'),
    await thresholdError.getAttribute('id'),
  );
  t.is(await panel.getByTestId('backtest-chart').count(), 0, 'no backtest for a refused draft');
  t.regex(await panel.getByTestId('backtest-message').innerText(), /fields marked/);
  t.deepEqual(await seriousAccessibilityViolations(page), {}, 'the refused draft');
});
