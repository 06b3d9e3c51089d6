/**
 * "Who gets paged if this fires now?" beside the policy editor, in Chromium (issue 30, Dashboard):
 * a two-stage policy built by picking names shows, before it is saved, the person on call for a
 * schedule (and why), a group's members, a channel, and a user without a phone as unreachable with
 * the reason; a draft the API refuses says so in the panel without marking the form's fields; an
 * instant chosen asks "if it fired at …"; typing asks once after the last keystroke, and typing the
 * name asks nothing; once saved, the row's "Who gets paged?" answers the same
 * from the saved policy. axe-core in each state, no sideways scroll at 360 px, screenshots.
 */
import test from 'ava';
import type { Locator, Page } from 'playwright-core';
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

test.before(async () => {
  if (skipped) return;
  dashboard = await startDashboard();
  const group = await dashboard.api('POST', '/api/v1/groups', { name: 'DBAs', permissions: {} });
  const user = async (name: string, fields: Record<string, unknown> = {}) =>
    (
      await dashboard.api('POST', '/users', {
        email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
        name,
        role_id: 'responder',
        group_ids: [],
        ...fields,
      })
    ).id as string;
  const ada = await user('Ada Oncall', { phone: '+447700900123' });
  await user('Ben Member', { group_ids: [group.id] });
  await user('Cy Member', { group_ids: [group.id] });
  await user('Nora Nophone');
  // Ada alone in the rotation since January: on call whenever the test runs.
  await dashboard.api('POST', '/api/v1/schedules', {
    name: 'Primary',
    timezone: 'UTC',
    layers: [{ user_ids: [ada], rotation_type: 'weekly', start_time: '2026-01-05T09:00:00Z' }],
  });
  await dashboard.api('POST', '/api/v1/notification-channels', {
    name: 'ops chat',
    type: 'chat',
    config: { webhook_url: 'https://hooks.example.com/services/T000/B000/secretsecret', channel_name: '#ops' },
  });
  page = await dashboard.newPage();
  await dashboard.signIn(page);
});

test.after.always(async () => dashboard?.close());

async function noSeriousViolations(t: { deepEqual: (a: unknown, b: unknown, m?: string) => void }, state: string) {
  t.deepEqual(await seriousAccessibilityViolations(page), {}, `axe-core, ${state}`);
}

/** The panel's stages as text, once it shows an answer (not updating, not waiting). */
async function stagesShown(panel: Locator): Promise<string[]> {
  await waitFor(
    async () =>
      (await panel.getAttribute('aria-busy')) === 'false' && (await panel.getByTestId('preview-stage').count()) > 0,
    { timeoutMs: 10_000, intervalMs: 50, message: 'the preview answered' },
  );
  return panel.getByTestId('preview-stage').allTextContents();
}

function expectWhoGetsPaged(
  t: { regex: (s: string, r: RegExp, m?: string) => void; is: (a: unknown, b: unknown, m?: string) => void },
  stages: string[],
) {
  t.is(stages.length, 2, 'two stages');
  const [first, second] = stages as [string, string];
  t.regex(first, /^Stage 1: at once/);
  t.regex(
    first,
    /Ada Oncall\s*sms\s*\+44\*+123\s*on call for schedule Primary via layer 0/,
    'the on-call person, masked phone and why',
  );
  t.regex(first, /Ada Oncall\s*email\s*a\*+@example\.com/, 'by email too');
  t.regex(
    first,
    /Nora Nophone\s*sms\s*unreachable\s*the user has no phone number/,
    'the sms-less user, with the reason',
  );
  t.regex(second, /^Stage 2: after 15 min/);
  t.regex(second, /Ben Member\s*email\s*b\*+@example\.com\s*member of group DBAs/, 'a group member');
  t.regex(second, /Cy Member\s*email\s*c\*+@example\.com\s*member of group DBAs/, 'the other member');
  t.regex(second, /ops chat\s*chat\s*#ops\s*notification channel ops chat/, 'the channel');
}

suite(`the editor previews who gets paged before saving; the saved row answers the same${skipped}`, async (t) => {
  await page.getByRole('link', { name: 'Policies' }).click();
  await page.getByRole('button', { name: 'New policy' }).click();
  const form = page.getByRole('form', { name: 'New escalation policy' });
  const panel = page.getByTestId('policy-preview');
  await panel.getByText('Choose a target for stage 1 to see who gets paged.').waitFor();
  await noSeriousViolations(t, 'a new policy, nothing to preview yet');

  await form.getByLabel('Stage 1 target 1', { exact: true }).selectOption({ label: 'Primary' });
  await form.getByRole('group', { name: 'Stage 1 target 1: notify by' }).getByLabel('sms').check();
  await form.getByRole('button', { name: 'Add target to stage 1' }).click();
  await form.getByLabel('Stage 1 target 2', { exact: true }).selectOption({ label: 'Nora Nophone' });
  const noraBy = form.getByRole('group', { name: 'Stage 1 target 2: notify by' });
  await noraBy.getByLabel('sms').check();
  await noraBy.getByLabel('email').uncheck();
  await form.getByRole('button', { name: 'Add stage' }).click();
  await form.getByLabel('Stage 2 target 1', { exact: true }).selectOption({ label: 'DBAs' });
  await form.getByRole('button', { name: 'Add target to stage 2' }).click();
  await form.getByLabel('Stage 2 target 2', { exact: true }).selectOption({ label: 'ops chat' });

  // A later stage with no delay: the API refuses the draft; the panel says why, the form stays clean.
  const delay = form.getByLabel('Stage 2: minutes after the stage before');
  await delay.fill('0');
  await panel.getByText(/Preview unavailable:/).waitFor();
  t.regex((await panel.textContent()) ?? '', /stage 2 delay: /, "the refusal in the form's words");
  t.not(await delay.getAttribute('aria-invalid'), 'true', "the preview does not mark the form's field");
  t.is(await form.locator('[data-path="/stages/1/delay_minutes"]').count(), 0, 'no field error beside the delay');
  await noSeriousViolations(t, 'a refused draft');

  // Asked a moment after the last keystroke, not per keystroke; typing the name asks nothing.
  let asked = 0;
  page.on(
    'request',
    (request) =>
      void (request.method() === 'POST' && request.url().includes('/escalation-policies/preview') && asked++),
  );
  await delay.clear();
  await delay.pressSequentially('15');
  const unsaved = await stagesShown(panel);
  t.true(asked >= 1 && asked <= 2, `typing the delay asked ${asked} times`);
  expectWhoGetsPaged(t, unsaved);
  t.regex((await panel.getByRole('heading', { level: 3 }).textContent()) ?? '', /if it fires now/);
  t.regex((await panel.textContent()) ?? '', /Does not repeat/);
  t.deepEqual(await dashboard.api('GET', '/api/v1/escalation-policies'), [], 'nothing created by previewing');
  await noSeriousViolations(t, 'the editor with its preview');
  t.is(await sidewaysOverflow(page, 360), 0, 'the editor and its preview fit 360 px');
  await dashboard.shots(page, 'policy-preview');

  // If it fired at a chosen instant: stage 2's clock is 15 minutes after it.
  const beforeAt = asked;
  await panel.getByLabel('If it fired at').fill('2026-12-01T09:30');
  await waitFor(() => asked > beforeAt, { timeoutMs: 5_000, intervalMs: 50, message: 'asked for the chosen instant' });
  t.regex(
    (await panel.getByRole('heading', { level: 3 }).textContent()) ?? '',
    /if it fired at .*9:30/,
    'the heading names the instant',
  );
  const atNine = await stagesShown(panel);
  t.regex(atNine[1]!, /09:45|9:45/, 'stage 2 fires 15 minutes after the chosen instant');
  expectWhoGetsPaged(t, atNine);
  await noSeriousViolations(t, 'a preview at a chosen instant');
  const beforeNow = asked;
  await panel.getByRole('button', { name: 'Now' }).click();
  await waitFor(() => asked > beforeNow, { timeoutMs: 5_000, intervalMs: 50, message: 'asked again for now' });
  await stagesShown(panel);

  const before = asked;
  await form.getByLabel('Name', { exact: true }).pressSequentially('Warehouse on-call');
  await form.getByLabel('Description', { exact: true }).pressSequentially('nights and weekends');
  await stagesShown(panel);
  t.is(asked, before, 'the name and description do not change who is paged: not asked again');
  await form.getByRole('button', { name: 'Create policy' }).click();
  const listed = page.getByTestId('policies').getByRole('row').filter({ hasText: 'Warehouse on-call' }).first();
  await listed.waitFor();
  t.is((await dashboard.api('GET', '/api/v1/escalation-policies')).length, 1, 'saved once');

  const ask = page.getByRole('button', { name: 'Who gets paged? Warehouse on-call' });
  await ask.click();
  t.is(await ask.getAttribute('aria-expanded'), 'true');
  const saved = page.getByTestId('policies').getByTestId('policy-preview');
  const fromSaved = await stagesShown(saved);
  expectWhoGetsPaged(t, fromSaved);
  t.deepEqual(
    fromSaved.map((stage) => stage.replace(/\(.*?\)/, '')),
    unsaved.map((stage) => stage.replace(/\(.*?\)/, '')),
    'the saved policy pages whom the draft did',
  );
  await noSeriousViolations(t, "the list with a saved policy's preview");
  t.is(await sidewaysOverflow(page, 360), 0, 'the list with its preview fits 360 px');
  await dashboard.shots(page, 'policy-preview-saved');
  await ask.click();
  await saved.waitFor({ state: 'detached' });
});
