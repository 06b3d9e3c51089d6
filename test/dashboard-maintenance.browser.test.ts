/**
 * Maintenance windows in Chromium (issue 30, "windows with their active state"): a window for one
 * rule picked by name, from now for an hour, shows "active now" and puts a "silenced by" badge on
 * that rule (and no other) on the Alert rules page; a weekly window in Europe/Berlin said in words;
 * an edit refused (If-Match) after a change made meanwhile, explained, then their version loaded;
 * the 30-day limit beside the end field; end now → "ended", its history, and the badge gone; delete. A reader
 * (alerts:read without alerts:write) sees the windows and no write buttons. axe-core in each
 * state, no sideways scroll at 360 px, screenshots at 1280 and 390 px.
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
import { waitFor } from './support/wait-for.js';

let dashboard: Dashboard;
let page: Page;
let dataDir: string;
const rules: Record<string, string> = {};
const DAY_MS = 86_400_000;
const WEEK = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const DAY_WORDS: Record<string, string> = {
  sun: 'Sun',
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
};

async function noSeriousViolations(
  t: { deepEqual: (a: unknown, b: unknown, m?: string) => void },
  state: string,
  on = page,
) {
  t.deepEqual(await seriousAccessibilityViolations(on), {}, `axe-core, ${state}`);
}

/** Berlin's weekday `days` from now. */
const berlinDay = (days: number) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', weekday: 'short' })
    .format(Date.now() + days * DAY_MS)
    .toLowerCase();

test.before(async () => {
  if (skipped) return;
  dataDir = mkdtempSync(join(tmpdir(), 'ww-dashboard-maintenance-'));
  dashboard = await startDashboard({ DATA_DIR: dataDir });
  const { api } = dashboard;
  const channel = await api('POST', '/api/v1/notification-channels', {
    name: 'ops mail',
    type: 'email',
    config: { recipients: ['ops@example.com'], subject_template: '{{rule_name}}' },
  });
  const policy = await api('POST', '/api/v1/escalation-policies', {
    name: 'Ops',
    stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.id }] }],
  });
  for (const [name, metric] of [
    ['Queue wait', 'queue_time_seconds'],
    ['Disk usage', 'storage_utilization_pct'],
  ] as const) {
    rules[name] = (
      await api('POST', '/api/v1/alert-rules', {
        name,
        metric,
        condition: 'gt',
        threshold: 1_000_000,
        evaluation_window_minutes: 5,
        severity: 'high',
        escalation_policy_id: policy.id,
      })
    ).id;
  }
  page = await dashboard.newPage();
  await dashboard.signIn(page);
});

test.after.always(async () => {
  await dashboard?.close();
});

const row = (name: string, on = page) =>
  on.getByTestId('maintenance-windows').getByRole('row').filter({ hasText: name });
const ruleRow = (name: string) => page.locator('tr[data-rule-id]').filter({ hasText: name });
const editor = () => page.locator('[data-testid="window-editor"][data-state="ready"]');

suite(`a window for one rule picked by name, now for an hour: active now, and the rule silenced on the Alert rules page${skipped}`, async (t) => {
  await page.getByRole('link', { name: 'Maintenance' }).click();
  await page.getByText('No maintenance windows yet.').waitFor();
  await page.getByRole('button', { name: 'New window' }).click();
  const form = editor();
  await form.getByLabel('Name').fill('Resize prod');
  await form.getByLabel('Reason').fill('elastic resize to 8 nodes');
  await form.getByRole('checkbox', { name: 'Queue wait' }).check();
  await noSeriousViolations(t, 'a new window');
  t.is(await sidewaysOverflow(page, 360), 0, 'the editor fits 360 px');
  await dashboard.shots(page, 'maintenance-editor');
  await form.getByRole('button', { name: 'Create window' }).click();

  const listed = row('Resize prod');
  await listed.getByTestId('window-state').filter({ hasText: 'active now' }).waitFor();
  await page.getByTestId('windows-outcome').filter({ hasText: 'Created Resize prod' }).waitFor();
  t.is(await listed.getByTestId('window-matches').textContent(), 'rule “Queue wait”', 'the rule by name');
  const [stored] = await dashboard.api('GET', '/api/v1/maintenance-windows');
  t.deepEqual(stored.matcher.rule_ids, [rules['Queue wait']]);
  t.is(Date.parse(stored.ends_at) - Date.parse(stored.starts_at), 3_600_000, 'an hour');
  t.true(Math.abs(Date.parse(stored.starts_at) - Date.now()) < 120_000, 'from now');

  await page.getByRole('link', { name: 'Alert rules' }).click();
  await ruleRow('Queue wait').getByTestId('rule-silenced').filter({ hasText: 'silenced by Resize prod' }).waitFor();
  t.is(
    await ruleRow('Disk usage').getByTestId('rule-silenced').count(),
    0,
    'a rule the window does not match is not silenced',
  );
  await noSeriousViolations(t, 'alert rules with a silenced rule');
  t.is(await sidewaysOverflow(page, 360), 0, 'the rules page fits 360 px');
});

suite(`a weekly window in Europe/Berlin, said in words; an edit refused after a change made meanwhile, then their version${skipped}`, async (t) => {
  await page.getByRole('link', { name: 'Maintenance' }).click();
  await page.getByRole('button', { name: 'New window' }).click();
  const form = editor();
  await form.getByLabel('Name').fill('Vacuum');
  await form.getByLabel('Reason').fill('VACUUM and ANALYZE');
  await form.getByRole('checkbox', { name: 'Silence every alert rule' }).check();
  await form.getByRole('radio', { name: 'Every week' }).check();
  t.truthy(await form.getByLabel('Time zone').inputValue(), "the browser's zone by default");
  // Two days ahead and four days ahead in Berlin: not active now, whatever the day.
  const days = [berlinDay(2), berlinDay(4)].sort(
    (a, b) => ((WEEK.indexOf(a as never) + 6) % 7) - ((WEEK.indexOf(b as never) + 6) % 7),
  );
  for (const day of days) await form.getByRole('checkbox', { name: DAY_WORDS[day] }).check();
  await form.getByLabel('Local start time').fill('02:00');
  await form.getByLabel('Duration (minutes)').fill('120');
  await form.getByLabel('Time zone').fill('Europe/Berlin');
  await noSeriousViolations(t, 'a weekly window');
  await form.getByRole('button', { name: 'Create window' }).click();

  const listed = row('Vacuum');
  await listed.waitFor();
  t.is(
    await listed.getByTestId('window-when').textContent(),
    `every ${days.map((d) => DAY_WORDS[d]).join(', ')} at 02:00 Europe/Berlin for 2 h`,
  );
  t.is(await listed.getByTestId('window-matches').textContent(), 'every alert rule');
  t.regex((await listed.getByTestId('window-state').textContent()) ?? '', /^upcoming/);
  t.regex(
    (await page.getByTestId('maintenance-windows').getByRole('row').nth(1).textContent()) ?? '',
    /Resize prod/,
    'the active window first',
  );
  const vacuum = (await dashboard.api('GET', '/api/v1/maintenance-windows')).find(
    (w: { name: string }) => w.name === 'Vacuum',
  );
  t.deepEqual(vacuum.recurrence, { days, start_time: '02:00', duration_minutes: 120, time_zone: 'Europe/Berlin' });

  // Someone renames it meanwhile: the save is refused (If-Match) and explained.
  await listed.getByRole('button', { name: 'Edit Vacuum' }).click();
  const edit = editor();
  await edit.getByLabel('Reason').fill('VACUUM only');
  const {
    id: _id,
    tenant_id: _tenant,
    active: _a,
    current_occurrence: _c,
    next_change_at: _n,
    ended_at: _e,
    ended_by: _b,
    created_at: _ca,
    created_by: _cb,
    updated_at: _u,
    starts_at: _s,
    ends_at: _en,
    ...body
  } = vacuum;
  await dashboard.api('PUT', `/api/v1/maintenance-windows/${vacuum.id}`, { ...body, name: 'Vacuum (theirs)' });
  await edit.getByRole('button', { name: 'Save window' }).click();
  await edit.getByText(/Someone changed or ended this window after you opened it/).waitFor();
  await noSeriousViolations(t, 'an edit refused with a 409');
  await edit.getByRole('button', { name: 'Load their version' }).click();
  await waitFor(async () => (await edit.getByLabel('Name').inputValue()) === 'Vacuum (theirs)', {
    timeoutMs: 10_000,
    intervalMs: 50,
    message: 'their version loaded',
  });
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await dashboard.shots(page, 'maintenance');
});

suite(`a window longer than 30 days: the API's error beside the end, nothing created${skipped}`, async (t) => {
  await page.getByRole('button', { name: 'New window' }).click();
  const form = editor();
  await form.getByLabel('Name').fill('Too long');
  await form.getByLabel('Reason').fill('a month of upgrades');
  await form.getByRole('checkbox', { name: 'Disk usage' }).check();
  const start = await form.getByLabel('Starts (your time)').inputValue();
  await form
    .getByLabel('Ends (your time)')
    .fill(new Date(Date.parse(`${start}:00Z`) + 40 * DAY_MS).toISOString().slice(0, 16));
  await form.getByRole('button', { name: 'Create window' }).click();
  const end = form.getByLabel('Ends (your time)');
  await waitFor(async () => (await end.getAttribute('aria-invalid')) === 'true', {
    timeoutMs: 10_000,
    intervalMs: 50,
    message: 'the end marked invalid',
  });
  t.regex((await form.locator('[data-path="/ends_at"]').textContent()) ?? '', /at most 30 days/);
  t.is(
    await end.getAttribute('aria-describedby'),
    await form.locator('[data-path="/ends_at"]').getAttribute('id'),
    'the error describes its field',
  );
  t.is((await dashboard.api('GET', '/api/v1/maintenance-windows')).length, 2, 'nothing created');
  await noSeriousViolations(t, 'the 30-day error');
  t.is(await sidewaysOverflow(page, 360), 0, 'the error fits 360 px');
  await dashboard.shots(page, 'maintenance-errors');
  await form.getByRole('button', { name: 'Cancel' }).click();
});

suite(`end now: ended, the rule pages again; then deleted${skipped}`, async (t) => {
  const listed = row('Resize prod');
  await listed.getByRole('button', { name: 'End Resize prod now' }).click();
  await page.getByTestId('windows-outcome').filter({ hasText: 'Ended Resize prod' }).waitFor();
  await listed
    .getByTestId('window-state')
    .filter({ hasText: /^ended/ })
    .waitFor();
  t.is(
    await listed.getByRole('button', { name: 'End Resize prod now' }).count(),
    0,
    'an ended window cannot be ended or edited again',
  );
  t.regex(
    (await page.getByTestId('maintenance-windows').getByRole('row').last().textContent()) ?? '',
    /Resize prod/,
    'ended windows last',
  );
  // Its history: who created it and who ended it (audit:read).
  await listed.getByText('History', { exact: true }).click();
  const history = listed.getByTestId('window-history');
  await history.getByText(/^ended early by /).waitFor();
  t.regex((await history.locator('li').first().textContent()) ?? '', /^created by you at /);
  await noSeriousViolations(t, 'an ended window with its history');

  await page.getByRole('link', { name: 'Alert rules' }).click();
  await ruleRow('Queue wait').waitFor();
  await waitFor(async () => (await ruleRow('Disk usage').count()) === 1, {
    timeoutMs: 10_000,
    intervalMs: 50,
    message: 'rules listed',
  });
  t.is(await ruleRow('Queue wait').getByTestId('rule-silenced').count(), 0, 'no longer silenced');

  await page.getByRole('link', { name: 'Maintenance' }).click();
  await row('Resize prod').getByRole('button', { name: 'Delete Resize prod' }).click();
  await row('Resize prod').getByRole('button', { name: 'Yes, delete Resize prod' }).click();
  await row('Resize prod').waitFor({ state: 'detached' });
  await page.getByTestId('windows-outcome').filter({ hasText: 'Deleted Resize prod' }).waitFor();
  t.deepEqual(
    (await dashboard.api('GET', '/api/v1/maintenance-windows')).map((w: { name: string }) => w.name),
    ['Vacuum (theirs)'],
  );
});

suite(`a reader sees the windows and no write buttons${skipped}`, async (t) => {
  const role = await dashboard.api('POST', '/api/v1/roles', {
    name: 'alerts reader',
    permissions: { 'alerts:read': 'allow', 'alerts:write': 'deny' },
  });
  const reader = await dashboard.api('POST', '/users', {
    email: 'rea@example.com',
    name: 'Rea Reader',
    role_id: role.id,
    group_ids: [],
  });
  const tab = await dashboard.newPage();
  await tab.goto(`${dashboard.platform.url}/`);
  await tab.getByRole('textbox', { name: 'Token' }).fill(dashboard.userToken(reader.id));
  await tab.getByRole('button', { name: 'Use token' }).click();
  await tab.getByRole('link', { name: 'Maintenance' }).click();
  await row('Vacuum (theirs)', tab).getByTestId('window-when').waitFor();
  t.is(await tab.getByRole('button', { name: 'New window' }).count(), 0);
  t.is(await tab.getByRole('button', { name: /^(Edit|Delete|End)/ }).count(), 0);
  await noSeriousViolations(t, "a reader's view", tab);
  t.is(await sidewaysOverflow(tab, 360), 0, "the reader's view fits 360 px");
  await tab.close();
});
