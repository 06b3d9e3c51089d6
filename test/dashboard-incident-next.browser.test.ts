/**
 * The incident page says what comes next (issue 29, the incident page): when it escalates next and
 * to whom (the on-call person of a schedule target by name), who is on call now for its schedules,
 * the rule and policy linked, who was paged by which medium; and it follows the escalation live
 * (a stage fired, an acknowledgement). The list says who resolved an incident and why; the tab
 * title counts the open incidents on every page, live.
 *
 * The escalation's timers run in virtual time (the platform's scheduler), its clock is real time
 * plus the virtual time advanced: a five-minute stage delay passes in one call.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import {
  seriousAccessibilityViolations,
  skipped,
  startDashboard,
  suite,
  type Dashboard,
} from './support/dashboard-browser.js';
import { waitFor } from './support/wait-for.js';
import test from 'ava';

const scheduler = new VirtualTimeScheduler(VirtualAction, Infinity);
const now = () => new Date(Date.now() + scheduler.frame);

let dashboard: Dashboard;
let dataDir: string;
let ada: { id: string };
let bo: { id: string };
let policy: { id: string };
let page: Page;
let incidentId = '';
let ruleId = '';

const api = (method: string, path: string, body?: unknown, bearer?: string) =>
  dashboard.api(method, path, body, bearer);

/** Moves virtual time `ms` on, firing the escalation's timers due on the way. */
function advance(ms: number) {
  const target = scheduler.frame + ms;
  scheduler.maxFrames = target;
  scheduler.flush();
  if (scheduler.frame < target) scheduler.frame = target;
  scheduler.maxFrames = Infinity;
}

/** A fresh rule over the pinned metric and its incident, once its escalation runs. */
async function newIncident(name: string, escalationPolicyId: string): Promise<{ incidentId: string; ruleId: string }> {
  const rule = await api('POST', '/api/v1/alert-rules', {
    name,
    metric: 'queue_time_seconds',
    condition: 'gt',
    threshold: 30,
    evaluation_window_minutes: 0,
    severity: 'high',
    escalation_policy_id: escalationPolicyId,
  });
  let found = '';
  await waitFor(
    async () => {
      const [open] = (await api('GET', `/api/v1/incidents?rule_id=${rule.id}&status=triggered`)) as {
        id: string;
        escalation: { current_stage: unknown };
      }[];
      found = open?.escalation.current_stage ? open.id : '';
      return found !== '';
    },
    { timeoutMs: 15_000, intervalMs: 100, message: `the incident of ${name}, its first stage fired` },
  );
  return { incidentId: found, ruleId: rule.id };
}

const next = () => page.getByTestId('next-escalation');
/** The time as the page writes it (the browser's locale and zone). */
const shownTime = (iso: string) => page.evaluate((at) => new Date(at).toLocaleString(), iso);

test.before(async () => {
  if (skipped) return;
  dataDir = mkdtempSync(join(tmpdir(), 'ww-dashboard-next-'));
  dashboard = await startDashboard({ DATA_DIR: dataDir }, { now, scheduler });
  ada = await api('POST', '/users', {
    email: 'ada@example.com',
    name: 'Ada Oncall',
    role_id: 'responder',
    group_ids: [],
  });
  bo = await api('POST', '/users', { email: 'bo@example.com', name: 'Bo First', role_id: 'responder', group_ids: [] });
  const schedule = await api('POST', '/schedules', {
    name: 'Primary rota',
    timezone: 'UTC',
    layers: [{ user_ids: [ada.id], rotation_type: 'weekly', start_time: '2026-01-05T09:00:00' }],
  });
  policy = await api('POST', '/api/v1/escalation-policies', {
    name: 'Two-step',
    repeat_interval_minutes: 10,
    stages: [
      { stage_order: 1, delay_minutes: 0, targets: [{ type: 'user', id: bo.id, channels: ['email'] }] },
      { stage_order: 2, delay_minutes: 5, targets: [{ type: 'schedule', id: schedule.id, channels: ['email'] }] },
    ],
  });
  await api('POST', '/api/v1/simulator/metrics', { metric: 'queue_time_seconds', value: 95, duration_seconds: 3600 });
  ({ incidentId, ruleId } = await newIncident('Queue wait, two stages', policy.id));
  page = await dashboard.newPage();
  await dashboard.signIn(page);
});
test.after.always(async () => dashboard?.close());

suite(`the page names the next stage's time and the on-call person; it follows a stage fired and the acknowledgement${skipped}`, async (t) => {
  await page.goto(`${dashboard.platform.url}/#/incidents/${incidentId}`);
  const first = await api('GET', `/api/v1/incidents/${incidentId}`);
  t.truthy(first.next_escalation_at, 'stage 2 is due');
  await next()
    .filter({ hasText: `Stage 2 at ${await shownTime(first.next_escalation_at)}` })
    .filter({ hasText: 'Primary rota schedule (on call now: Ada Oncall) by email' })
    .waitFor();
  t.is(await next().getAttribute('data-kind'), 'next');
  await page.getByTestId('oncall-now').filter({ hasText: 'Primary rota: Ada Oncall' }).waitFor();
  await page.getByTestId('paged').filter({ hasText: 'Bo First (b***@example.com) by email, stage 1' }).waitFor();
  t.is(await page.getByTestId('rule-link').getAttribute('href'), `#/alert-rules/${ruleId}`);
  t.is(await page.getByTestId('policy-link').getAttribute('href'), `#/policies/${policy.id}`);
  t.is(await page.getByTestId('policy-link').textContent(), 'Two-step');
  t.deepEqual(await seriousAccessibilityViolations(page), {}, 'stage 2 next');
  await dashboard.shots(page, 'incident');

  await page.evaluate(() => ((globalThis as any).sameDocument = true));
  advance(5 * 60_000);
  await page.getByTestId('current-stage').filter({ hasText: 'stage 2,' }).waitFor();
  let second: { next_escalation_at: string } = first;
  await waitFor(
    async () => {
      second = await api('GET', `/api/v1/incidents/${incidentId}`);
      return second.next_escalation_at !== first.next_escalation_at && second.next_escalation_at !== null;
    },
    { timeoutMs: 15_000, intervalMs: 100, message: 'the repeat due' },
  );
  await next()
    .filter({ hasText: `Stage 1 again (repeats every 10 min) at ${await shownTime(second.next_escalation_at)}` })
    .filter({ hasText: 'Bo First by email' })
    .waitFor();
  await page.getByTestId('paged').filter({ hasText: 'Ada Oncall (a***@example.com) by email, stage 2' }).waitFor();

  await page.getByTestId('incident-actions').getByRole('button', { name: 'Acknowledge' }).click();
  await next().filter({ hasText: 'Acknowledged: escalation stopped.' }).waitFor();
  t.true(await page.evaluate(() => (globalThis as any).sameDocument === true), 'no reload');
  t.deepEqual(await seriousAccessibilityViolations(page), {}, 'acknowledged');

  await page.setViewportSize({ width: 360, height: 800 });
  const widths = await page.evaluate(() => ({
    client: (globalThis as any).document.documentElement.clientWidth,
    scroll: (globalThis as any).document.documentElement.scrollWidth,
  }));
  t.true(widths.scroll <= widths.client, `no sideways scroll at 360 px (${widths.scroll} > ${widths.client})`);
  await page.setViewportSize({ width: 1280, height: 800 });
});

suite(`an acknowledgement from elsewhere stops the "next" too, and a policy without repeat says no further stages${skipped}`, async (t) => {
  const single = await api('POST', '/api/v1/escalation-policies', {
    name: 'One-step',
    stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'user', id: bo.id, channels: ['email'] }] }],
  });
  const other = await newIncident('Queue wait, one stage', single.id);
  await page.goto(`${dashboard.platform.url}/#/incidents/${other.incidentId}`);
  await next().filter({ hasText: 'No further stages: stage 1 was the last and the policy does not repeat.' }).waitFor();
  t.is(await page.getByTestId('oncall-now').count(), 0, 'the policy pages no schedule');
  await api('POST', `/api/v1/incidents/${other.incidentId}/acknowledge`, {}, dashboard.userToken(ada.id));
  await next().filter({ hasText: 'Acknowledged: escalation stopped.' }).waitFor();
  t.pass();
});

suite(`without the history (no audit:read), the stages come from the policy as it is now, and the page says so${skipped}`, async (t) => {
  const role = await api('POST', '/api/v1/roles', {
    name: 'pager without history',
    permissions: {
      'incidents:read': 'allow',
      'escalation:read': 'allow',
      'schedules:read': 'allow',
      'audit:read': 'deny',
    },
  });
  const pat = await api('POST', '/users', {
    email: 'pat@example.com',
    name: 'Pat Pager',
    role_id: role.id,
    group_ids: [],
  });
  const other = await newIncident('Queue wait, read by Pat', policy.id);
  const tab = await dashboard.newPage();
  await tab.goto(`${dashboard.platform.url}/`);
  await tab.getByRole('textbox', { name: 'Token' }).fill(dashboard.userToken(pat.id));
  await tab.getByRole('button', { name: 'Use token' }).click();
  await tab.getByTestId('principal').waitFor();
  await tab.evaluate((id) => void ((globalThis as any).location.hash = `#/incidents/${id}`), other.incidentId);
  await tab
    .getByTestId('next-escalation')
    .filter({ hasText: 'Stage 2 at' })
    .filter({ hasText: 'Primary rota schedule (on call now: Ada Oncall) by email' })
    .waitFor();
  await tab.getByTestId('escalation-outlook').filter({ hasText: '(stages as the policy is now)' }).waitFor();
  t.is(await tab.getByTestId('timeline').count(), 0, 'no history for this reader');
  await tab.close();
});

suite(`the tab title counts the open incidents on another page, live${skipped}`, async (t) => {
  const open = async () =>
    ((await api('GET', '/api/v1/incidents?status=triggered,acknowledged&limit=200')) as unknown[]).length;
  const before = await open();
  t.true(before > 0);
  await page.goto(`${dashboard.platform.url}/#/alert-rules`);
  await page.waitForFunction(
    (n) => (globalThis as any).document.title === `(${n}) Alert rules · warehouse-watch`,
    before,
  );
  await newIncident('Queue wait, counted', policy.id);
  await page.waitForFunction(
    (n) => (globalThis as any).document.title === `(${n}) Alert rules · warehouse-watch`,
    before + 1,
  );
  t.is(await page.evaluate(() => (globalThis as any).location.hash), '#/alert-rules', 'still on the rules');
});

suite(`one incident feed per tab: the title, the list and an incident's page share it across pages${skipped}`, async (t) => {
  const tab = await dashboard.newPage();
  const streams: string[] = [];
  tab.on('request', (request) => request.url().includes('/api/v1/incidents/stream') && streams.push(request.url()));
  await dashboard.signIn(tab);
  await tab.locator('[data-testid="incident-list"] [data-feed-state="live"]').waitFor();
  await tab.evaluate((id) => void ((globalThis as any).location.hash = `#/incidents/${id}`), incidentId);
  await tab.locator('[data-testid="incident-summary"]').first().waitFor();
  await tab.locator('h1 [data-feed-state="live"]').waitFor();
  await tab.evaluate(() => void ((globalThis as any).location.hash = '#/alert-rules'));
  await tab.waitForFunction(() => /^\(\d+\) Alert rules · warehouse-watch$/.test((globalThis as any).document.title));
  t.is(streams.length, 1, `one stream opened: ${streams.length}`);
  await tab.close();
});

suite(`without incidents:read the title is the page's and the product's${skipped}`, async (t) => {
  t.true(
    ((await api('GET', '/api/v1/incidents?status=triggered,acknowledged')) as unknown[]).length > 0,
    'incidents are open',
  );
  const role = await api('POST', '/api/v1/roles', {
    name: 'sync only',
    permissions: { 'sync:read': 'allow', 'incidents:read': 'deny' },
  });
  const sam = await api('POST', '/users', {
    email: 'sam@example.com',
    name: 'Sam Sync',
    role_id: role.id,
    group_ids: [],
  });
  const tab = await dashboard.newPage();
  await tab.goto(`${dashboard.platform.url}/`);
  await tab.getByRole('textbox', { name: 'Token' }).fill(dashboard.userToken(sam.id));
  await tab.getByRole('button', { name: 'Use token' }).click();
  await tab.getByTestId('principal').waitFor();
  await tab.evaluate(() => void ((globalThis as any).location.hash = '#/sync'));
  await tab.waitForFunction(() => (globalThis as any).document.title === 'Sync · warehouse-watch');
  t.is(await tab.title(), 'Sync · warehouse-watch');
  await tab.close();
});

suite(`resolved incidents say who resolved them and why: a person with a note, the evaluator${skipped}`, async (t) => {
  await api(
    'POST',
    `/api/v1/incidents/${incidentId}/resolve`,
    { note: 'queue drained after the vacuum' },
    dashboard.userToken(ada.id),
  );
  // The metric clears: the evaluator resolves every other incident of these rules.
  await api('POST', '/api/v1/simulator/metrics', { metric: 'queue_time_seconds', value: 5, duration_seconds: 3600 });
  await waitFor(async () => (await api('GET', '/api/v1/incidents?status=triggered,acknowledged')).length === 0, {
    timeoutMs: 15_000,
    intervalMs: 100,
    message: 'all resolved',
  });
  await page.goto(`${dashboard.platform.url}/#/incidents?status=resolved`);
  const row = (id: string) => page.locator(`tr[data-incident-id="${id}"]`);
  await row(incidentId)
    .getByTestId('resolution')
    .filter({ hasText: 'by Ada Oncall: “queue drained after the vacuum”' })
    .waitFor();
  const auto = (await api('GET', '/api/v1/incidents?status=resolved&limit=200')).find(
    (i: { resolution_reason: string }) => i.resolution_reason === 'auto',
  );
  t.truthy(auto, 'one resolved by the evaluator');
  await row(auto.id)
    .getByTestId('resolution')
    .filter({ hasText: /^auto-resolved by the evaluator \(value 5\)$/ })
    .waitFor();
  t.notRegex((await page.getByTestId('incidents').textContent())!, /[0-9a-f]{8}-[0-9a-f]{4}-/, 'no UUID in the list');
  await page.waitForFunction(() => (globalThis as any).document.title === 'Incidents · warehouse-watch');
  t.deepEqual(await seriousAccessibilityViolations(page), {}, 'resolved listed');
  await dashboard.shots(page, 'incidents');
});
