/**
 * The dashboard on a phone and its colours (issue 29, defects 5 and 10): every page fits 360 and
 * 390 px without sideways scroll, with its action buttons, status and sign-out on screen and the
 * on-call timeline's labels at a readable size; and axe-core finds no colour-contrast failure on
 * any page with incidents present (one triggered `high`, one acknowledged) and the incident's
 * history slider moved back (entries "ahead" of it greyed).
 *
 * Without Chromium at /usr/bin/chromium the tests are skipped and their titles say why.
 */
import test from 'ava';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  ARTIFACTS,
  DEADLINE_MS,
  seriousAccessibilityViolations,
  skipped,
  startDashboard,
  suite,
  type Dashboard,
} from './support/dashboard-browser.js';
import { waitFor } from './support/wait-for.js';

let dashboard: Dashboard;
let page: Page;
let triggeredId: string;
let acknowledgedId: string;

/** Every page, reached with the data it shows; `ready` waits until its content (and its buttons) are there. */
const PAGES: { name: string; path: () => string; ready: (page: Page) => Promise<unknown> }[] = [
  {
    name: 'incidents',
    path: () => '#/incidents',
    ready: (p) =>
      p.locator(`[data-incident-id="${triggeredId}"]`).getByRole('button', { name: 'Acknowledge' }).waitFor(),
  },
  {
    name: 'incident',
    path: () => `#/incidents/${acknowledgedId}`,
    ready: async (p) => {
      await p.getByTestId('timeline').getByText('IncidentAcknowledged').waitFor();
      await p.getByRole('button', { name: 'Resolve' }).waitFor();
    },
  },
  {
    name: 'oncall',
    path: () => '#/oncall',
    ready: (p) => p.locator('svg.oncall-timeline rect.segment').first().waitFor(),
  },
  { name: 'sync', path: () => '#/sync', ready: (p) => p.locator('tr[data-job-id] button').first().waitFor() },
  { name: 'warehouse', path: () => '#/warehouse', ready: (p) => p.getByTestId('slow-queries').waitFor() },
  {
    name: 'alert-rules',
    path: () => '#/alert-rules',
    ready: (p) => p.locator('tr[data-rule-id] svg.sparkline').first().waitFor(),
  },
  {
    name: 'schedules',
    path: () => '#/schedules',
    ready: (p) => p.getByTestId('schedules').getByRole('button', { name: 'Edit Warehouse primary' }).waitFor(),
  },
  {
    name: 'channels',
    path: () => '#/channels',
    ready: (p) => p.getByTestId('channels').getByRole('button', { name: 'Send test' }).first().waitFor(),
  },
  {
    name: 'policies',
    path: () => '#/policies',
    ready: (p) => p.getByTestId('policies').getByRole('button', { name: 'Edit ops' }).waitFor(),
  },
  {
    name: 'users',
    path: () => '#/users',
    ready: (p) => p.getByTestId('users').getByText('Ada Oncall').first().waitFor(),
  },
  {
    name: 'roles',
    path: () => '#/roles',
    ready: (p) => p.getByTestId('roles').getByText('responder').first().waitFor(),
  },
  {
    name: 'groups',
    path: () => '#/groups',
    ready: (p) => p.getByTestId('groups').getByText('Warehouse team').first().waitFor(),
  },
  {
    name: 'maintenance',
    path: () => '#/maintenance',
    ready: (p) => p.getByTestId('maintenance-windows').getByText('Nightly vacuum').first().waitFor(),
  },
  {
    name: 'analytics',
    path: () => '#/analytics',
    ready: (p) => p.getByTestId('analytics-groups').getByText('Queue wait').first().waitFor(),
  },
  {
    name: 'assistant',
    path: () => '#/assistant',
    ready: (p) => p.getByRole('heading', { name: 'Assistant' }).waitFor(),
  },
];

test.before(async () => {
  if (skipped) return;
  dashboard = await startDashboard();
  const { api } = dashboard;
  const channel = await api('POST', '/api/v1/notification-channels', {
    name: 'ops',
    type: 'email',
    config: { recipients: ['ops@example.com'], subject_template: '{{rule_name}}' },
  });
  const policy = await api('POST', '/api/v1/escalation-policies', {
    name: 'ops',
    stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.id }] }],
  });
  const rule = (name: string, threshold: number, severity: string) =>
    api('POST', '/api/v1/alert-rules', {
      name,
      metric: 'queue_time_seconds',
      condition: 'gt',
      threshold,
      evaluation_window_minutes: 0,
      severity,
      escalation_policy_id: policy.id,
    });
  const high = await rule('Queue wait over half a minute on the main cluster', 30, 'high');
  const medium = await rule('Queue wait', 20, 'medium');
  await api('POST', '/api/v1/simulator/metrics', { metric: 'queue_time_seconds', value: 95, duration_seconds: 3600 });
  await waitFor(async () => (await api('GET', '/api/v1/incidents?status=triggered')).length >= 2, {
    timeoutMs: DEADLINE_MS,
    intervalMs: 100,
    message: 'two incidents',
  });
  const open = (await api('GET', '/api/v1/incidents?status=triggered')) as { id: string; rule_id: string }[];
  triggeredId = open.find((incident) => incident.rule_id === high.id)!.id;
  acknowledgedId = open.find((incident) => incident.rule_id === medium.id)!.id;
  await api('POST', `/api/v1/incidents/${acknowledgedId}/acknowledge`, {});
  const user = await api('POST', '/users', {
    email: 'ada@example.com',
    name: 'Ada Oncall',
    role_id: 'responder',
    group_ids: [],
  });
  const other = await api('POST', '/users', {
    email: 'bo@example.com',
    name: 'Bo Backup',
    role_id: 'responder',
    group_ids: [],
  });
  await api('POST', '/api/v1/maintenance-windows', {
    name: 'Nightly vacuum',
    reason: 'VACUUM on the main cluster',
    matcher: { rule_ids: [medium.id] },
    recurrence: { days: ['mon', 'wed', 'fri'], start_time: '02:00', duration_minutes: 90, time_zone: 'Europe/Berlin' },
  });
  await api('POST', '/api/v1/groups', { name: 'Warehouse team', permissions: { 'incidents:write': 'allow' } });
  await api('POST', '/schedules', {
    name: 'Warehouse primary',
    timezone: 'Europe/Berlin',
    layers: [{ user_ids: [user.id, other.id], rotation_type: 'weekly', start_time: '2026-01-05T09:00:00' }],
  });
  page = await dashboard.newPage({ width: 390, height: 844 });
  await dashboard.signIn(page);
});

test.after.always(async () => dashboard?.close());

/** What sticks out of a `width` px viewport: the page's scroll width, and visible buttons, statuses and nav links outside it. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const doc = (globalThis as any).document;
    const width = doc.documentElement.clientWidth;
    const outside: string[] = [];
    for (const element of doc.querySelectorAll('button, .status, header.top a, [data-testid="principal"]')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.left < 0 || box.right > width + 0.5)
        outside.push(
          `${element.tagName.toLowerCase()} "${element.textContent.trim()}" at ${Math.round(box.left)}–${Math.round(box.right)}`,
        );
    }
    return { width, scrollWidth: doc.documentElement.scrollWidth, outside };
  });
}

for (const width of [360, 390]) {
  suite(`every page fits ${width} px: no sideways scroll, every action, status and sign-out on screen${skipped}`, async (t) => {
    await page.setViewportSize({ width, height: 844 });
    for (const { name, path, ready } of PAGES) {
      await page.goto(`${dashboard.platform.url}/${path()}`);
      await ready(page);
      const found = await overflow(page);
      t.true(found.scrollWidth <= width, `${name}: the page is ${found.scrollWidth} px wide at ${width} px`);
      t.deepEqual(found.outside, [], `${name}: off screen at ${width} px`);
      t.true(await page.getByRole('button', { name: 'Sign out' }).isVisible(), `${name}: sign-out`);
      if (width === 360) await page.screenshot({ path: join(ARTIFACTS, `layout-${name}-360.png`), fullPage: true });
    }
  });
}

suite(`screenshots of every page at 1280 and 390 px go to the test artifacts${skipped}`, async (t) => {
  for (const { name, path, ready } of PAGES) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${dashboard.platform.url}/${path()}`);
    await ready(page);
    await dashboard.shots(page, `page-${name}`);
  }
  t.pass(`${PAGES.length} pages: test/artifacts/page-<name>-1280.png and -390.png`);
});

suite(`the on-call timeline's labels are readable at 360 px${skipped}`, async (t) => {
  await page.setViewportSize({ width: 360, height: 844 });
  await page.goto(`${dashboard.platform.url}/#/oncall`);
  await page.locator('svg.oncall-timeline rect.segment').first().waitFor();
  const heights = await page
    .locator('svg.oncall-timeline text')
    .evaluateAll((texts) => texts.map((text) => text.getBoundingClientRect().height));
  t.true(heights.length >= 2, `${heights.length} labels`);
  t.true(
    heights.every((height) => height >= 10),
    `rendered label heights ${heights.map(Math.round).join(', ')} px`,
  );
  t.true(await page.getByText('Ada Oncall').first().isVisible(), 'the names are shown');
});

for (const width of [1280, 360]) {
  suite(`axe-core finds no colour-contrast failure at ${width} px with incidents triggered and acknowledged, and the slider moved back${skipped}`, async (t) => {
    await page.setViewportSize({ width, height: width === 360 ? 844 : 800 });
    for (const { name, path, ready } of PAGES) {
      await page.goto(`${dashboard.platform.url}/${path()}`);
      await ready(page);
      if (name === 'incidents')
        await page.locator(`[data-incident-id="${acknowledgedId}"] .status-acknowledged`).waitFor();
      if (name === 'incident') {
        const slider = page.getByLabel('moment');
        await slider.fill((await slider.getAttribute('min')) ?? '0');
        await page.locator('.timeline li.ahead').first().waitFor();
        await page.locator('.as-of [data-testid="incident-summary"][data-status="triggered"]').waitFor();
      }
      const violations = await seriousAccessibilityViolations(page);
      t.log(name, JSON.stringify(violations));
      t.is(violations['color-contrast'], undefined, `${name}: colour contrast`);
    }
  });
}
