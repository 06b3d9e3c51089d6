/**
 * Managing alert rules from the dashboard in Chromium (issue 29, "Manage"): a rule is created
 * with its escalation policy picked by name (no id typed) after the form showed the metric's
 * value now against the threshold; the API's validation errors appear beside the fields they
 * name and nothing is created; the threshold is edited (PUT with the GET's ETag as If-Match);
 * an edit made meanwhile elsewhere gives a 409 the form explains; the rule is deleted after a
 * confirmation. axe-core checks the form; screenshots at 1280 and 390 px go to test/artifacts/.
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

interface RuleAnswer {
  id: string;
  name: string;
  threshold: number;
  escalation_policy_id: string;
  on_error: string;
  on_no_data: string;
  error_for_minutes: number;
}
const rulesNamed = async (name: string) =>
  ((await dashboard.api('GET', '/api/v1/alert-rules?limit=200')) as RuleAnswer[]).filter((rule) => rule.name === name);

suite(`create a rule with its policy picked by name, edit its threshold, see field errors and a 409, delete it${skipped}`, async (t) => {
  const { api } = dashboard;
  const channel = await api('POST', '/api/v1/notification-channels', {
    name: 'ops mail',
    type: 'email',
    config: { recipients: ['ops@example.com'], subject_template: '{{rule_name}}' },
  });
  const stages = [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.id }] }];
  await api('POST', '/api/v1/escalation-policies', { name: 'Day shift', stages });
  const night = await api('POST', '/api/v1/escalation-policies', { name: 'Night shift', stages });
  // The simulated warehouse's queue wait, pinned: the preview must show this very value.
  await api('POST', '/api/v1/simulator/metrics', { metric: 'queue_time_seconds', value: 95, duration_seconds: 3600 });

  await dashboard.signIn(page);
  await page.goto(`${dashboard.platform.url}/#/alert-rules`);
  await page.getByRole('button', { name: 'New rule' }).click();
  const form = page.getByTestId('rule-editor');
  await form.getByLabel('Metric').locator('option', { hasText: 'queue_time_seconds' }).waitFor({ state: 'attached' });
  await form
    .getByLabel('Escalation policy')
    .locator('option', { hasText: 'Night shift' })
    .waitFor({ state: 'attached' });

  // Invalid: a blank name (the API trims it) and a threshold that is not a number.
  await form.getByLabel('Name', { exact: true }).fill('   ');
  await form.getByLabel('Metric').selectOption('queue_time_seconds');
  await form.getByLabel('Threshold', { exact: true }).fill('lots');
  await form.getByLabel('Escalation policy').selectOption({ label: 'Night shift' });
  await form.getByRole('button', { name: 'Create rule' }).click();
  const nameError = form.locator('.field-error[data-path="/name"]');
  await nameError.waitFor();
  t.regex(await nameError.innerText(), /\S/, "the name's error is shown beside it");
  await form.locator('.field-error[data-path="/threshold"]').waitFor();
  t.is(
    await form.getByLabel('Name', { exact: true }).getAttribute('aria-describedby'),
    await nameError.getAttribute('id'),
    'the error describes its field',
  );
  t.deepEqual(await api('GET', '/api/v1/alert-rules?limit=200'), [], 'a refused form creates nothing');
  t.deepEqual(await seriousAccessibilityViolations(page), {}, 'the form with its errors');
  await dashboard.shots(page, 'alert-rule-errors');

  // Valid now; before saving, the metric's value now against the threshold.
  await form.getByLabel('Name', { exact: true }).fill('Queue wait');
  await form.getByLabel('Threshold', { exact: true }).fill('30');
  await form.getByTestId('preview-reading').filter({ hasText: '95' }).waitFor();
  t.regex(await form.getByTestId('preview-verdict').innerText(), /would breach: 95 > 30/);
  t.deepEqual(await seriousAccessibilityViolations(page), {}, 'the filled form with its preview');
  await dashboard.shots(page, 'alert-rule-new');
  await form.getByRole('button', { name: 'Create rule' }).click();
  const row = page.locator('tr[data-rule-id]').filter({ hasText: 'Queue wait' });
  await row.waitFor();
  await page.getByTestId('rules-outcome').filter({ hasText: 'Created Queue wait' }).waitFor();
  const [created] = await rulesNamed('Queue wait');
  t.is(created?.escalation_policy_id, night.id, 'the policy picked by name');

  // Edit the threshold: the form opens with the rule's values; the preview follows the new threshold.
  await row.getByRole('button', { name: 'Edit Queue wait' }).click();
  const edit = page.locator('[data-testid="rule-editor"][data-state="ready"]');
  t.is(await edit.getByLabel('Threshold', { exact: true }).inputValue(), '30');
  await edit.getByLabel('Threshold', { exact: true }).fill('120');
  await edit.getByTestId('preview-verdict').filter({ hasText: 'within' }).waitFor();
  // What the rule does when the warehouse cannot be read or answers nothing: opened as the rule was made.
  t.is(await edit.getByLabel('When the warehouse cannot be read').inputValue(), 'alerting');
  await edit.getByLabel('When the warehouse cannot be read').selectOption({ label: 'do not page' });
  await edit.getByLabel('When it returns no data').selectOption({ label: 'do not page, keep the last state' });
  await edit.getByLabel('Page after (minutes)').fill('15');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await page.getByTestId('rules-outcome').filter({ hasText: 'Saved Queue wait' }).waitFor();
  await row.filter({ hasText: '> 120' }).waitFor();
  const [saved] = await rulesNamed('Queue wait');
  t.like(saved, { threshold: 120, on_error: 'ok', on_no_data: 'keep_last', error_for_minutes: 15 });

  // Someone else edits the rule while the form is open: the save is refused with a 409 the form explains.
  await row.getByRole('button', { name: 'Edit Queue wait' }).click();
  t.is(await edit.getByLabel('Threshold', { exact: true }).inputValue(), '120');
  await api('PATCH', `/api/v1/alert-rules/${created!.id}`, { name: 'Queue wait (theirs)' });
  await edit.getByLabel('Threshold', { exact: true }).fill('60');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  t.regex(await edit.getByTestId('editor-message').innerText(), /changed this rule after you opened it.*409/);
  t.is((await rulesNamed('Queue wait (theirs)'))[0]?.threshold, 120, 'the stale edit changed nothing');
  await edit.getByRole('button', { name: 'Load their version' }).click();
  await page.waitForFunction(
    () =>
      (globalThis as any).document.querySelector('[data-testid="rule-editor"] input[name="name"]')?.value ===
      'Queue wait (theirs)',
  );
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // At phone width the page does not scroll sideways and the row's actions are reachable.
  await page.reload();
  const theirs = page.locator('tr[data-rule-id]').filter({ hasText: 'Queue wait (theirs)' });
  await theirs.waitFor();
  await page.setViewportSize({ width: 360, height: 800 });
  t.true(
    await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= 360),
    'no sideways scroll at 360 px',
  );
  t.true(await theirs.getByRole('button', { name: 'Delete Queue wait (theirs)' }).isVisible());
  await page.setViewportSize({ width: 1280, height: 800 });

  // Delete asks first; "Keep it" keeps it; "Yes, delete" deletes it.
  await theirs.getByRole('button', { name: 'Delete Queue wait (theirs)' }).click();
  await theirs.getByTestId('rule-delete-confirm').waitFor();
  await dashboard.shots(page, 'alert-rule-delete-confirm');
  await theirs.getByRole('button', { name: 'Keep it' }).click();
  t.is((await rulesNamed('Queue wait (theirs)')).length, 1, 'kept');
  await theirs.getByRole('button', { name: 'Delete Queue wait (theirs)' }).click();
  await theirs.getByRole('button', { name: 'Yes, delete' }).click();
  await page.getByTestId('rules-outcome').filter({ hasText: 'Deleted Queue wait (theirs)' }).waitFor();
  t.is(await page.locator('tr[data-rule-id]').count(), 0);
  t.deepEqual(await api('GET', '/api/v1/alert-rules?limit=200'), []);
});
