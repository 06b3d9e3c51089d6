/**
 * The reference page at /docs in a real browser (Debian's Chromium through playwright-core): Swagger
 * UI renders every tag of /openapi.json under the page's own Content-Security-Policy, with no script
 * error and no request to any other host (it must work offline). Skipped, saying why, where
 * Chromium is not installed.
 */
import test from 'ava';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startTestApp, type TestApp } from './support/test-app.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);

let app: TestApp;
test.before(async () => {
  if (available) app = await startTestApp();
});
test.after.always(async () => app?.close());

(available ? test : test.skip)(
  `the reference page renders the document, offline and within its CSP${available ? '' : ` (skipped: no ${CHROMIUM})`}`,
  async (t) => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('request', (request) => {
        if (!request.url().startsWith(app.url)) problems.push(`request to another host: ${request.url()}`);
      });
      await page.goto(`${app.url}/docs`);
      const document = (await app.request('GET', '/openapi.json')).body;
      await page.waitForSelector('.opblock-tag', { timeout: 30_000 });
      const tags = await page.locator('.opblock-tag').allInnerTexts();
      for (const tag of document.tags.map((entry: { name: string }) => entry.name)) {
        t.true(
          tags.some((text) => text.startsWith(tag)),
          `tag ${tag} shown`,
        );
      }
      // Tags start collapsed (the page's docExpansion); opened one at a time, each renders its operations.
      const expected = new Map<string, number>();
      for (const operations of Object.values(document.paths) as Record<string, { tags: string[] }>[]) {
        for (const operation of Object.values(operations))
          expected.set(operation.tags[0]!, (expected.get(operation.tags[0]!) ?? 0) + 1);
      }
      let rendered = 0;
      for (const [tag, count] of expected) {
        const section = page
          .locator('.opblock-tag-section')
          .filter({ has: page.locator(`.opblock-tag[data-tag="${tag}"]`) });
        await section.locator('.opblock-tag').click();
        await section
          .locator('.opblock')
          .nth(count - 1)
          .waitFor({ timeout: 30_000 });
        t.is(await section.locator('.opblock').count(), count, `${tag}: every operation rendered`);
        rendered += count;
        await section.locator('.opblock-tag').click();
      }
      t.is(rendered, Object.values(document.paths).flatMap((operations) => Object.keys(operations as object)).length);
      t.deepEqual(problems, []);
    } finally {
      await browser.close();
    }
  },
);
