/**
 * Manage on-call schedules in Chromium (issue 29, "Manage": schedules with layers and overrides, the
 * rendered timeline previewed before saving). A new user creates a two-layer schedule with people
 * picked by name and reordered, sees the unsaved preview change as layers and an override are added,
 * saves it and sees who is on call now; an edit refused (If-Match) because someone added an override
 * meanwhile, then made on their version, whose errors the API names show beside their fields
 * (an empty layer, an override ending before it starts); a delete refused because a policy pages the
 * schedule, explained with the policy's name; the delete. axe-core in each state, no sideways scroll
 * at 360 px, screenshots at 1280 and 390 px. A reader gets no write buttons.
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
const people: Record<string, string> = {};

const ZONE = 'Europe/Berlin';
const DAY_MS = 86_400_000;

/** The `datetime-local` value of the day `days` from now at `hh:mm`, in the schedule's zone. */
function wallClock(days: number, hhmm: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(Date.now() + days * DAY_MS);
  return `${parts}T${hhmm}`;
}

async function noSeriousViolations(t: { deepEqual: (a: unknown, b: unknown, m?: string) => void }, state: string) {
  t.deepEqual(await seriousAccessibilityViolations(page), {}, `axe-core, ${state}`);
}

test.before(async () => {
  if (skipped) return;
  dataDir = mkdtempSync(join(tmpdir(), 'ww-dashboard-schedules-'));
  dashboard = await startDashboard({ DATA_DIR: dataDir });
  for (const [email, name] of [
    ['ada@example.com', 'Ada Oncall'],
    ['bo@example.com', 'Bo Backup'],
    ['cy@example.com', 'Cy Cover'],
  ] as const) {
    people[name] = (await dashboard.api('POST', '/users', { email, name, role_id: 'responder', group_ids: [] })).id;
  }
  page = await dashboard.newPage();
  await dashboard.signIn(page);
});

test.after.always(async () => {
  await dashboard?.close();
});

const row = (name: string) => page.getByTestId('schedules').getByRole('row').filter({ hasText: name });
const preview = () => page.getByTestId('schedule-preview');

suite(`a two-layer schedule with an override: people by name, the preview before saving, save, on call now${skipped}`, async (t) => {
  await page.getByRole('link', { name: 'Schedules' }).click();
  await page.getByText('No schedules yet.').waitFor();
  await page.getByRole('button', { name: 'New schedule' }).click();
  const form = page.getByRole('form', { name: 'New schedule' });
  t.truthy(await form.getByLabel('Time zone').inputValue(), "the browser's zone by default");
  await form.getByLabel('Name', { exact: true }).fill('Warehouse primary');
  await form.getByLabel('Time zone').fill(ZONE);

  // Layer 1: Ada then Bo, reordered so Bo takes the first turn (three days ago, weekly).
  await form.getByLabel('Layer 1: add a person').selectOption({ label: 'Ada Oncall' });
  await form.getByLabel('Layer 1: add a person').selectOption({ label: 'Bo Backup' });
  await form.getByRole('button', { name: 'Move Bo Backup up in layer 1' }).click();
  t.deepEqual(
    await form.getByRole('list', { name: 'Layer 1 rotation, in turn order' }).locator('.pool-name').allTextContents(),
    ['Bo Backup', 'Ada Oncall'],
  );
  await form.getByLabel('Layer 1: hands over').selectOption('weekly');
  await form.getByLabel('Layer 1: first turn starts').fill(wallClock(-3, '09:00'));

  // The preview renders the unsaved layer: Bo is on call now.
  await preview().getByText('Would be on call now: Bo Backup').waitFor();
  t.is(await preview().locator('rect.segment.override').count(), 0, 'no override yet');

  // Layer 2: Cy daily from five days ahead; the preview's band gains Cy.
  await form.getByRole('button', { name: 'Add layer' }).click();
  await form.getByLabel('Layer 2: add a person').selectOption({ label: 'Cy Cover' });
  await form.getByLabel('Layer 2: hands over').selectOption('daily');
  await form.getByLabel('Layer 2: first turn starts').fill(wallClock(5, '09:00'));
  await preview().getByRole('list', { name: 'who is in the band' }).getByText('Cy Cover').waitFor();

  // An override for Ada: it shows in the preview before anything is saved.
  await form.getByRole('button', { name: 'Add override' }).click();
  await form.getByLabel('Override 1: who covers').selectOption({ label: 'Ada Oncall' });
  await form.getByLabel('Override 1: from').fill(wallClock(1, '18:00'));
  await form.getByLabel('Override 1: until').fill(wallClock(2, '08:00'));
  await preview().locator('rect.segment.override').first().waitFor();

  // Typing is debounced: sixteen keystrokes ask for a preview once or twice, not sixteen times.
  const settled = async () => (await preview().getAttribute('aria-busy')) === 'false';
  await waitFor(settled, { timeoutMs: 10_000, intervalMs: 50, message: 'the preview settled' });
  let previews = 0;
  const count = (request: { url(): string }) => void (request.url().includes('/schedules/preview') && previews++);
  page.on('request', count);
  await form.getByLabel('Override 1: reason').pressSequentially('Bo is travelling');
  await waitFor(async () => (await settled()) && previews > 0, {
    timeoutMs: 10_000,
    intervalMs: 50,
    message: 'the preview after typing',
  });
  page.off('request', count);
  t.true(previews <= 2, `${previews} preview requests for 16 keystrokes`);
  t.deepEqual(await dashboard.api('GET', '/api/v1/schedules'), [], 'nothing saved while previewing');
  await noSeriousViolations(t, 'schedule editor with a preview');
  t.is(await sidewaysOverflow(page, 360), 0, 'the schedule editor fits 360 px');
  await dashboard.shots(page, 'schedules-editor');

  await form.getByRole('button', { name: 'Create schedule' }).click();
  const listed = row('Warehouse primary');
  await listed.getByText('Bo Backup', { exact: true }).waitFor();
  const text = (await listed.textContent()) ?? '';
  t.regex(
    (await listed.getByRole('cell').nth(1).textContent()) ?? '',
    /^Bo Backup until .*\(layer\)$/,
    'who is on call now',
  );
  t.regex(text, /weekly: Bo Backup → Ada Oncall/);
  t.regex(text, /daily: Cy Cover/);
  t.regex(text, /Ada Oncall .* → /, 'the override ahead');
  const [stored] = await dashboard.api('GET', '/api/v1/schedules');
  t.is(stored.timezone, ZONE);
  t.deepEqual(
    stored.layers.map((l: { user_ids: string[] }) => l.user_ids),
    [[people['Bo Backup'], people['Ada Oncall']], [people['Cy Cover']]],
  );
  t.is(stored.layers[0].start_time, `${wallClock(-3, '09:00')}:00`, 'a wall clock in the schedule zone');
  t.deepEqual(
    stored.overrides.map((o: { user_id: string; reason: string }) => [o.user_id, o.reason]),
    [[people['Ada Oncall'], 'Bo is travelling']],
  );
  await noSeriousViolations(t, 'schedules list');
  t.is(await sidewaysOverflow(page, 360), 0, 'the schedules page fits 360 px');
  await dashboard.shots(page, 'schedules');
});

suite(`edit: the API's errors beside their fields (an empty layer, an override ending before it starts), a conflict with a change made meanwhile, then saved${skipped}`, async (t) => {
  await row('Warehouse primary').getByRole('button', { name: 'Edit Warehouse primary' }).click();
  const form = page.getByRole('form', { name: 'Edit schedule Warehouse primary' });
  t.is(
    await form.getByLabel('Layer 1: first turn starts').inputValue(),
    wallClock(-3, '09:00'),
    'the saved wall clock',
  );

  // Someone adds an override meanwhile: saving the whole schedule would drop it, so the save is refused (If-Match) and explained.
  const [opened] = await dashboard.api('GET', '/api/v1/schedules');
  await dashboard.api('POST', `/api/v1/schedules/${opened.id}/overrides`, {
    user_id: people['Cy Cover'],
    start: wallClock(9, '09:00'),
    end: wallClock(9, '17:00'),
    reason: 'swap',
  });
  await form.getByRole('button', { name: 'Save schedule' }).click();
  await form.getByText(/Someone changed this schedule after you opened it/).waitFor();
  await noSeriousViolations(t, 'schedule editor after a conflict');
  await form.getByRole('button', { name: 'Load their version' }).click();
  await form.getByLabel('Override 2: who covers').waitFor();
  t.is(
    await form.getByLabel('Override 2: who covers').locator('option:checked').textContent(),
    'Cy Cover',
    'their override is in the form',
  );

  // An empty layer 2: the preview says why it cannot render, the save puts the error beside the picker.
  await form.getByRole('button', { name: 'Remove Cy Cover from layer 2' }).click();
  await preview()
    .getByText(/No preview yet/)
    .waitFor();
  await form.getByRole('button', { name: 'Save schedule' }).click();
  const picker = form.getByLabel('Layer 2: add a person');
  await waitFor(async () => (await picker.getAttribute('aria-invalid')) === 'true', {
    timeoutMs: 5_000,
    intervalMs: 50,
    message: 'the empty layer marked invalid',
  });
  t.regex((await form.locator('[data-path="/layers/1/user_ids"]').textContent()) ?? '', /at least one user/);
  await noSeriousViolations(t, 'schedule editor with an empty layer');

  // Cy back; the override now ends before it starts: the error is beside "until".
  await picker.selectOption({ label: 'Cy Cover' });
  await form.getByLabel('Override 1: until').fill(wallClock(1, '08:00'));
  await form.getByRole('button', { name: 'Save schedule' }).click();
  const until = form.getByLabel('Override 1: until');
  await waitFor(async () => (await until.getAttribute('aria-invalid')) === 'true', {
    timeoutMs: 5_000,
    intervalMs: 50,
    message: 'the override end marked invalid',
  });
  t.regex((await form.locator('[data-path="/overrides/0/end"]').textContent()) ?? '', /after start/);
  t.is(await picker.getAttribute('aria-invalid'), null, 'the fixed layer is no longer marked');
  await noSeriousViolations(t, 'schedule editor with an override error');
  await dashboard.shots(page, 'schedules-errors');

  await until.fill(wallClock(2, '08:00'));
  await form.getByLabel('Name', { exact: true }).fill('Warehouse primary (v2)');
  await form.getByRole('button', { name: 'Save schedule' }).click();
  await row('Warehouse primary (v2)').waitFor();
  const [stored] = await dashboard.api('GET', '/api/v1/schedules');
  t.is(stored.name, 'Warehouse primary (v2)');
  t.deepEqual(
    stored.layers.map((l: { user_ids: string[] }) => l.user_ids),
    [[people['Bo Backup'], people['Ada Oncall']], [people['Cy Cover']]],
  );
  t.is(stored.overrides[0].end, `${wallClock(2, '08:00')}:00`);
  t.deepEqual(
    stored.overrides.map((o: { reason: string }) => o.reason),
    ['Bo is travelling', 'swap'],
    'the override added meanwhile is kept',
  );
});

suite(`delete: refused while a policy pages the schedule (the policy named), then done${skipped}`, async (t) => {
  const [schedule] = await dashboard.api('GET', '/api/v1/schedules');
  const policy = await dashboard.api('POST', '/api/v1/escalation-policies', {
    name: 'Warehouse on-call',
    stages: [
      { stage_order: 1, delay_minutes: 0, targets: [{ type: 'schedule', id: schedule.id, channels: ['email'] }] },
    ],
  });
  const listed = row('Warehouse primary (v2)');
  await listed.getByRole('button', { name: 'Delete Warehouse primary (v2)' }).click();
  await listed.getByRole('button', { name: 'Yes, delete Warehouse primary (v2)' }).click();
  const refusal = listed.getByRole('alert');
  await refusal.waitFor();
  t.regex(
    (await refusal.textContent()) ?? '',
    /Not deleted: .*Warehouse on-call.*Take it out of those policies/,
    'the refusal names the policy and what to do',
  );
  await noSeriousViolations(t, 'a refused delete');
  t.is(await sidewaysOverflow(page, 360), 0, 'the refusal fits 360 px');

  await dashboard.api('DELETE', `/api/v1/escalation-policies/${policy.id}`);
  await listed.getByRole('button', { name: 'Yes, delete Warehouse primary (v2)' }).click();
  await listed.waitFor({ state: 'detached' });
  await page.getByText('No schedules yet.').waitFor();
  t.deepEqual(await dashboard.api('GET', '/api/v1/schedules'), []);
});

suite(`a reader sees schedules and who is on call, and no write buttons${skipped}`, async (t) => {
  const role = await dashboard.api('POST', '/api/v1/roles', {
    name: 'schedule reader',
    permissions: { 'schedules:read': 'allow', 'schedules:write': 'deny' },
  });
  const reader = await dashboard.api('POST', '/users', {
    email: 'rea@example.com',
    name: 'Rea Reader',
    role_id: role.id,
    group_ids: [],
  });
  await dashboard.api('POST', '/api/v1/schedules', {
    name: 'Read-only rota',
    timezone: 'UTC',
    layers: [{ user_ids: [people['Ada Oncall']], rotation_type: 'daily', start_time: '2020-01-01T00:00:00Z' }],
  });
  const readerPage = await dashboard.newPage();
  await readerPage.goto(`${dashboard.platform.url}/`);
  await readerPage.getByRole('textbox', { name: 'Token' }).fill(dashboard.userToken(reader.id));
  await readerPage.getByRole('button', { name: 'Use token' }).click();
  await readerPage.getByRole('link', { name: 'Schedules' }).click();
  const listed = readerPage.getByTestId('schedules').getByRole('row').filter({ hasText: 'Read-only rota' });
  await listed.getByText('Ada Oncall', { exact: true }).first().waitFor();
  t.regex((await listed.textContent()) ?? '', /read only/);
  t.is(await readerPage.getByRole('button', { name: 'New schedule' }).count(), 0);
  t.is(await readerPage.getByRole('button', { name: /^(Edit|Delete)/ }).count(), 0);
  await readerPage.close();
});
