/** The browser-test support itself: a page signs in, and axe-core runs on it (issue 29's checks build on both). */
import test from 'ava';
import {
  seriousAccessibilityViolations,
  skipped,
  startDashboard,
  suite,
  type Dashboard,
} from './support/dashboard-browser.js';

let dashboard: Dashboard | undefined;
test.before(async () => {
  if (!skipped) dashboard = await startDashboard();
});
test.after.always(async () => dashboard?.close());

suite(`signs in and reports axe-core's serious and critical violations as a map${skipped}`, async (t) => {
  const page = await dashboard!.newPage();
  await dashboard!.signIn(page);
  const violations = await seriousAccessibilityViolations(page);
  t.deepEqual(violations, {}, 'no serious or critical violation on the signed-in page');
  await dashboard!.shots(page, 'support-signed-in');
});
