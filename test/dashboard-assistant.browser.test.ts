/**
 * The assistant page in Chromium against the real platform. With a model (the Messages API
 * stand-in, reached by the real SDK through ANTHROPIC_BASE_URL) a question goes through a round of
 * tool calls and its Markdown answer is rendered, hostile parts as text; the tools it used are
 * listed with their input, time and outcome. Without a model the page says so, and asking shows
 * the API's 503 detail. A blank question, and the API's own field error, show beside the field. axe and screenshots in each.
 */
import test from 'ava';
import {
  startAnthropicStandin,
  text,
  toolResults,
  toolUse,
  type AnthropicStandin,
} from './support/anthropic-standin.js';
import {
  seriousAccessibilityViolations,
  skipped,
  startDashboard,
  suite,
  type Dashboard,
} from './support/dashboard-browser.js';

const QUESTION = 'why are my queries slow?';
const ANSWER = [
  '## Why your queries are slow',
  '',
  'The **WLM queue** is full; see [the runbook](https://docs.aws.amazon.com/redshift/latest/dg/c_workload_mngmt_classification.html) and [this](javascript:alert(1)).',
  '',
  '| driver | cost |',
  '|---|--:|',
  'DRIVERS',
  '',
  '1. Run `VACUUM` on *sales*',
  '2. Check cost_by_service',
  '',
  '<script>window.__pwned = true</script><img src=x onerror="window.__pwned = true">',
  '',
  '```sql',
  'SELECT query FROM stl_wlm_query WHERE total_queue_time > 0;',
  '```',
].join('\n');

let standin: AnthropicStandin | undefined;
let dashboard: Dashboard | undefined;

test.afterEach.always(async () => {
  await dashboard?.close();
  await standin?.close();
  dashboard = undefined;
  standin = undefined;
});

suite(`a question is answered with rendered Markdown and the tools it used${skipped}`, async (t) => {
  standin = await startAnthropicStandin((request) => {
    if (toolResults(request).length === 0) {
      return {
        content: [
          text('Looking at the runbooks and the bill.'),
          toolUse('search_runbooks', { query: 'slow queries waiting in the WLM queue' }),
          toolUse('top_cost_drivers', { limit: 2 }),
        ],
      };
    }
    const drivers = JSON.parse(toolResults(request)[1]!.content) as { drivers: { usage_type: string; cost: number }[] };
    const rows = drivers.drivers.map((driver) => `| ${driver.usage_type} | $${driver.cost} |`).join('\n');
    return { content: [text(ANSWER.replace('DRIVERS', rows))], usage: { input_tokens: 900, output_tokens: 150 } };
  });
  dashboard = await startDashboard({ ANTHROPIC_API_KEY: 'sk-ant-standin-dashboard', ANTHROPIC_BASE_URL: standin.url });
  const page = await dashboard.newPage();
  await dashboard.signIn(page);
  await page.getByRole('link', { name: 'Assistant' }).click();
  await page.getByRole('heading', { name: 'Assistant', level: 1 }).waitFor();
  t.is(await page.getByTestId('assistant-unconfigured').count(), 0, 'a model is configured');

  await page.getByLabel('Question').fill(QUESTION);
  await page.getByRole('button', { name: 'Ask' }).click();
  const answer = page.getByTestId('assistant-answer');
  await answer.waitFor();

  t.is(await page.getByTestId('assistant-question').textContent(), `You asked: ${QUESTION}`);
  const rendered = page.getByTestId('assistant-markdown');
  t.is(
    await rendered.getByRole('heading', { name: 'Why your queries are slow' }).evaluate((node) => node.tagName),
    'H4',
    "## sits under the page's h1 and the answer's h2",
  );
  t.is(await rendered.locator('strong').first().textContent(), 'WLM queue');
  const link = rendered.getByRole('link', { name: 'the runbook' });
  t.is(
    await link.getAttribute('href'),
    'https://docs.aws.amazon.com/redshift/latest/dg/c_workload_mngmt_classification.html',
  );
  t.is(await link.getAttribute('rel'), 'noopener noreferrer nofollow');
  t.is(await rendered.getByRole('link', { name: 'this' }).count(), 0, 'a javascript: link is only its words');
  t.true((await rendered.textContent())!.includes('and this.'));
  const cells = await rendered.locator('table tbody tr').first().locator('td').allTextContents();
  t.regex(cells[0]!, /\S/, "the table holds the bill's first driver");
  t.regex(cells[1]!, /^\$\d/);
  t.deepEqual(await rendered.locator('ol li').allTextContents(), ['Run VACUUM on sales', 'Check cost_by_service']);
  t.is(await rendered.locator('ol li code').textContent(), 'VACUUM');
  t.is(await rendered.locator('pre code').textContent(), 'SELECT query FROM stl_wlm_query WHERE total_queue_time > 0;');
  t.true(
    (await rendered.textContent())!.includes('<script>window.__pwned = true</script>'),
    'the tag is shown as text',
  );
  t.is(await rendered.locator('script, img').count(), 0, "no element from the answer's HTML");
  t.is(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned), undefined);

  const tools = page.getByTestId('assistant-tools').locator('tbody tr');
  t.is(await tools.count(), 2);
  const first = await tools.nth(0).locator('td').allTextContents();
  t.is(first[1], 'search_runbooks');
  t.is(first[2], 'query: slow queries waiting in the WLM queue');
  t.regex(first[3]!, /^\d+(\.\d+)? ms$/);
  t.is(first[4], 'ok');
  t.deepEqual((await tools.nth(1).locator('td').allTextContents()).slice(1, 3), ['top_cost_drivers', 'limit: 2']);
  t.regex(
    (await page.getByTestId('assistant-usage').textContent())!,
    /^2 rounds · [\d,]+ tokens in, [\d,]+ out · stopped: end_turn$/,
  );
  t.is(await page.title(), 'Assistant · warehouse-watch');

  t.deepEqual(await seriousAccessibilityViolations(page), {});
  await dashboard.shots(page, 'assistant-answer');
  await page.setViewportSize({ width: 360, height: 800 });
  t.true(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'no sideways scroll at 360 px');
  t.deepEqual(await seriousAccessibilityViolations(page), {});

  // A blank question never reaches the model: refused beside the field.
  const before = standin.requests.length;
  await page.getByLabel('Question').fill('   ');
  await page.getByRole('button', { name: 'Ask' }).click();
  t.is(await page.getByTestId('assistant-prompt-error').textContent(), 'Type a question first.');
  t.is(await page.getByLabel('Question').getAttribute('aria-invalid'), 'true');
  t.is(standin.requests.length, before);
});

suite(`without a model the page says so, and asking shows the API's 503 detail${skipped}`, async (t) => {
  dashboard = await startDashboard();
  const page = await dashboard.newPage({ width: 390, height: 844 });
  await dashboard.signIn(page);
  await page.goto(`${dashboard.platform.url}/#/assistant`);
  await page.getByTestId('assistant-unconfigured').waitFor();
  await page.getByLabel('Question').fill(QUESTION);
  await page.getByRole('button', { name: 'Ask' }).click();
  const alert = page.getByTestId('assistant-status').getByRole('alert');
  await alert.waitFor();
  t.is(
    await alert.textContent(),
    'The assistant cannot answer: assistant not configured: set ANTHROPIC_API_KEY (see the README, "Analytics assistant")',
  );
  t.is(await page.getByTestId('assistant-answer').count(), 0);
  t.deepEqual(await seriousAccessibilityViolations(page), {});
  await dashboard.shots(page, 'assistant-no-model');

  // Bad input is refused before the missing model (docs/assistant.md), and the API's field error
  // shows beside the field. The page's maxlength keeps a typist under the limit; a script is not.
  await page.getByLabel('Question').evaluate((node) => node.removeAttribute('maxlength'));
  await page.getByLabel('Question').fill('x'.repeat(8_001));
  await page.getByRole('button', { name: 'Ask' }).click();
  const fieldError = page.getByTestId('assistant-prompt-error');
  await fieldError.waitFor();
  t.is(await fieldError.textContent(), 'must be at most 8000 characters');
  t.is(
    await page.getByLabel('Question').getAttribute('aria-describedby'),
    'assistant-prompt-hint assistant-prompt-error',
  );
  t.is(await alert.count(), 0, 'the field error replaces the earlier refusal');
  t.deepEqual(await seriousAccessibilityViolations(page), {});
});
