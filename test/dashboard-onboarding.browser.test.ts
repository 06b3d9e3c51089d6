/**
 * Issue 29, "Done when": a new user goes from sign-in to a paging setup (channel → policy →
 * schedule → rule) and through an incident to its resolution without leaving the console or typing
 * a UUID. One browser page does everything: it invites a colleague, makes a webhook channel to a
 * loopback receiver, a schedule with the colleague on call, a policy paging the schedule and the
 * channel, and a rule on the simulated warehouse's queue wait; the rule breaches, the incident
 * appears in the list, its page names who was paged, and the user acknowledges and resolves it with
 * a note. Every value typed goes through `typeInto`, which fails the test if it holds a UUID.
 * The only API calls are the warehouse's stand-in (the simulator's pinned reading, which is the
 * world changing, not the user) and reads that check what the page did.
 */
import test from 'ava';
import type { Locator, Page } from 'playwright-core';
import {
  seriousAccessibilityViolations,
  skipped,
  startDashboard,
  suite,
  type Dashboard,
} from './support/dashboard-browser.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/notify-receivers/webhook-receiver.js';
import { waitFor } from './support/wait-for.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

let dashboard: Dashboard;
let receiver: WebhookReceiver;
let page: Page;
let signingSecret = '';
const typed: string[] = [];

/** Every keystroke of the user: never an identifier (the console offers names). */
async function typeInto(field: Locator, value: string): Promise<void> {
  if (UUID.test(value)) throw new Error(`the test typed an identifier: ${value}`);
  typed.push(value);
  await field.fill(value);
}

/** The `datetime-local` value of the day `days` from now at `hh:mm` in a zone. */
function wallClock(zone: string, days: number, hhmm: string): string {
  const day = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(Date.now() + days * 86_400_000);
  return `${day}T${hhmm}`;
}

test.before(async () => {
  if (skipped) return;
  receiver = await startWebhookReceiver({ secret: () => signingSecret, accept: { status: 200, body: 'ok' } });
  dashboard = await startDashboard({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
  page = await dashboard.newPage();
});

test.after.always(async () => {
  await dashboard?.close();
  await receiver?.stop();
});

suite(`sign in, set up paging (people → channel → schedule → policy → rule), work the incident to its resolution${skipped}`, async (t) => {
  await dashboard.signIn(page);

  // A colleague to be on call, invited by name with a built-in role.
  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByRole('button', { name: 'Invite user' }).click();
  const invite = page.getByRole('form', { name: 'Invite a user' });
  await typeInto(invite.getByLabel('Email'), 'ada@example.com');
  await typeInto(invite.getByLabel('Name', { exact: true }), 'Ada Oncall');
  await invite.getByLabel('Role').selectOption({ label: 'responder (built-in)' });
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByRole('row').filter({ hasText: 'ada@example.com' }).waitFor();

  // A webhook channel; its signing secret is shown once.
  await page.getByRole('link', { name: 'Channels' }).click();
  await page.getByRole('button', { name: 'New channel' }).click();
  const channel = page.getByRole('form', { name: 'New channel' });
  await typeInto(channel.getByLabel('Name', { exact: true }), 'Ops webhook');
  await channel.getByLabel('Type').selectOption('webhook');
  await typeInto(channel.getByLabel('URL'), `${receiver.url}/hook`);
  await channel.getByRole('button', { name: 'Create channel' }).click();
  signingSecret = (await page.getByTestId('signing-secret').textContent()) ?? '';
  await page.getByTestId('channels').getByRole('row').filter({ hasText: 'Ops webhook' }).waitFor();

  // A schedule with Ada on call from yesterday, weekly.
  const zone = 'Europe/Berlin';
  await page.getByRole('link', { name: 'Schedules' }).click();
  await page.getByRole('button', { name: 'New schedule' }).click();
  const schedule = page.getByRole('form', { name: 'New schedule' });
  await typeInto(schedule.getByLabel('Name', { exact: true }), 'Warehouse primary');
  await typeInto(schedule.getByLabel('Time zone'), zone);
  await schedule.getByLabel('Layer 1: add a person').selectOption({ label: 'Ada Oncall' });
  await schedule.getByLabel('Layer 1: hands over').selectOption('weekly');
  await typeInto(schedule.getByLabel('Layer 1: first turn starts'), wallClock(zone, -1, '09:00'));
  await page.getByTestId('schedule-preview').getByText('Would be on call now: Ada Oncall').waitFor();
  await schedule.getByRole('button', { name: 'Create schedule' }).click();
  await page
    .getByTestId('schedules')
    .getByRole('row')
    .filter({ hasText: 'Warehouse primary' })
    .getByText('Ada Oncall', { exact: true })
    .waitFor();

  // A policy: stage 1 pages the schedule's on-call person and the webhook at once.
  await page.getByRole('link', { name: 'Policies' }).click();
  await page.getByRole('button', { name: 'New policy' }).click();
  const policy = page.getByRole('form', { name: 'New escalation policy' });
  await typeInto(policy.getByLabel('Name', { exact: true }), 'Warehouse on-call');
  await policy.getByLabel('Stage 1 target 1', { exact: true }).selectOption({ label: 'Warehouse primary' });
  await policy.getByRole('button', { name: 'Add target to stage 1' }).click();
  await policy.getByLabel('Stage 1 target 2', { exact: true }).selectOption({ label: 'Ops webhook' });
  await policy.getByRole('button', { name: 'Create policy' }).click();
  await page.getByTestId('policies').getByRole('row').filter({ hasText: 'Warehouse on-call' }).waitFor();

  // The warehouse's queue wait is high (the stand-in's pinned reading: the world, not the user).
  await dashboard.api('POST', '/api/v1/simulator/metrics', {
    metric: 'queue_time_seconds',
    value: 95,
    duration_seconds: 3600,
  });

  // A rule on it, paging through the policy picked by name; the form shows it would breach.
  await page.getByRole('link', { name: 'Alert rules' }).click();
  await page.getByRole('button', { name: 'New rule' }).click();
  const rule = page.getByTestId('rule-editor');
  await rule.getByLabel('Metric').locator('option', { hasText: 'queue_time_seconds' }).waitFor({ state: 'attached' });
  await rule
    .getByLabel('Escalation policy')
    .locator('option', { hasText: 'Warehouse on-call' })
    .waitFor({ state: 'attached' });
  await typeInto(rule.getByLabel('Name', { exact: true }), 'Queue wait');
  await rule.getByLabel('Metric').selectOption('queue_time_seconds');
  await typeInto(rule.getByLabel('Threshold', { exact: true }), '30');
  // At once rather than after five minutes of breach (the form's default window).
  await typeInto(rule.getByLabel('Window (minutes)'), '0');
  await rule.getByLabel('Escalation policy').selectOption({ label: 'Warehouse on-call' });
  await rule.getByTestId('preview-verdict').filter({ hasText: 'would breach' }).waitFor();
  await rule.getByRole('button', { name: 'Create rule' }).click();
  await page.getByTestId('rules-outcome').filter({ hasText: 'Created Queue wait' }).waitFor();

  // The incident appears in the list; its page says who was paged and how.
  await page.getByRole('link', { name: 'Incidents' }).click();
  const listed = page.getByRole('row').filter({ hasText: 'Queue wait' }).first();
  await listed.waitFor({ timeout: 30_000 });
  await listed.getByRole('link').first().click();
  await page.getByTestId('incident-summary').first().waitFor();
  await waitFor(() => receiver.accepted.length >= 1, {
    timeoutMs: 30_000,
    intervalMs: 100,
    message: 'the webhook was paged',
  });
  const timeline = page.getByTestId('timeline');
  await timeline
    .locator('li')
    .filter({ hasText: 'NotificationDelivered' })
    .filter({ hasText: 'email to Ada Oncall' })
    .first()
    .waitFor({ timeout: 30_000 });
  await timeline
    .locator('li')
    .filter({ hasText: 'EscalationStageFired' })
    .filter({ hasText: 'Ada Oncall by email' })
    .waitFor();
  const outlook = page.getByTestId('escalation-outlook');
  await outlook.getByTestId('oncall-now').getByText('Warehouse primary: Ada Oncall').waitFor();
  await outlook.getByTestId('paged').getByText('Ada Oncall').first().waitFor();
  t.is(await outlook.getByTestId('policy-link').textContent(), 'Warehouse on-call', 'the policy by name, linked');
  t.deepEqual(await seriousAccessibilityViolations(page), {}, 'axe-core, the paged incident');

  // Acknowledge, then resolve with a note.
  const actions = page.getByTestId('incident-actions');
  await actions.getByRole('button', { name: 'Acknowledge' }).click();
  await page.locator('[data-testid="incident-summary"][data-status="acknowledged"]').first().waitFor();
  await actions.getByRole('button', { name: 'Resolve…' }).click();
  await typeInto(actions.getByLabel('resolution note'), 'raised the queue slots');
  await actions.getByRole('button', { name: 'Resolve', exact: true }).click();
  await page.locator('[data-testid="incident-summary"][data-status="resolved"]').first().waitFor();
  await outlook
    .getByTestId('next-escalation')
    .getByText(/escalation stopped/)
    .waitFor();
  await dashboard.shots(page, 'onboarding-resolved');

  // The list of resolved incidents says who resolved it and why.
  await page.goto(`${dashboard.platform.url}/#/incidents?status=resolved`);
  await page
    .getByRole('row')
    .filter({ hasText: 'Queue wait' })
    .getByText(/by you.*raised the queue slots/)
    .waitFor();

  // What the page did, read back from the API: one incident, by this rule, resolved with the note,
  // paged to Ada (by the schedule) and the webhook; nothing typed was an identifier.
  const [incident] = await dashboard.api('GET', '/api/v1/incidents?status=resolved');
  t.is(incident.resolution_note, 'raised the queue slots');
  const [created] = await dashboard.api('GET', '/api/v1/alert-rules');
  t.is(incident.rule_id, created.id);
  const [policyAnswer] = await dashboard.api('GET', '/api/v1/escalation-policies');
  t.is(created.escalation_policy_id, policyAnswer.id, 'the rule names the policy picked by name');
  const history: { type: string; data: { target?: string } }[] = await dashboard.api(
    'GET',
    `/api/v1/incidents/${incident.id}/events`,
  );
  t.true(
    history.some(
      (event) => event.type === 'NotificationDelivered' && /^a.*@example\.com$/.test(event.data.target ?? ''),
    ),
    "Ada was paged as the schedule's on-call person",
  );
  t.true(receiver.accepted.length >= 1, 'the webhook was paged');
  t.false(
    typed.some((value) => UUID.test(value)),
    'no identifier was typed',
  );
});
