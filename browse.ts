import { chromium } from 'playwright-core';
import { startTestApp } from './test/support/test-app.js';
const app = await startTestApp();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
try {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('request', (r) => { if (!r.url().startsWith(app.url)) problems.push(`external request ${r.url()}`); });
  await page.goto(`${app.url}/docs`);
  await page.waitForSelector('.opblock-tag', { timeout: 20000 });
  console.log('tags', await page.locator('.opblock-tag').count(), 'ops', await page.locator('.opblock').count());
  await page.screenshot({ path: '/tmp/docs.png' });
  console.log(problems);
} finally { await browser.close(); await app.close(); }
