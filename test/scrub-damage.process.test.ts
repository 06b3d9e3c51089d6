/**
 * Issue 39, item 3: damage is found before anything reads it. A zeroed page in the middle of a
 * stopped platform's events.db (and one in its read-models.db) used to start cleanly with /health
 * `ok` until a request met the page; the background scrub at start-up now takes /health to 503,
 * naming each file and what recovers it, while nothing but /health and /metrics is asked.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startPlatformProcess } from './support/platform-process.js';
import { parsePrometheusText } from './support/prometheus-text.js';
import { startTestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';
import { PAGE, zeroPage } from './support/zero-page.js';

interface Health {
  status: string;
  checks: Record<string, { status: string; error?: string }>;
}

test('a zeroed page in the middle of events.db and one of read-models.db: the start-up scrub takes /health to 503 naming both files and their recovery, with no request reading them', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-scrub-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

  // A small log of a few dozen pages, written in-process (no scrub), then stopped cleanly: the WAL is in the files.
  const app = await startTestApp({ dataDir, env: { SCRUB_INTERVAL_HOURS: '0' } });
  const caller = app.newTenant();
  for (let i = 0; i < 120; i += 20)
    await Promise.all(
      Array.from({ length: 20 }, (_, k) =>
        app.request('POST', '/notification-channels', {
          caller,
          body: {
            name: `c${i + k}`,
            type: 'email',
            config: { recipients: ['oncall@example.com'], subject_template: 'x'.repeat(400) },
          },
        }),
      ),
    );
  await app.close();

  const log = join(dataDir, 'events.db');
  const logPages = statSync(log).size / PAGE;
  t.true(logPages >= 20, `a log of ${logPages} pages`);
  zeroPage(log, Math.floor(logPages / 2) * PAGE);
  // The channels table's root page: only a request listing channels reads it.
  const readModels = join(dataDir, 'read-models.db');
  const db = new Database(readModels);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'rm_channels'").get() as {
    rootpage: number;
  };
  db.close();
  zeroPage(readModels, (rootpage - 1) * PAGE);

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const platform = await startPlatformProcess({
    DATA_DIR: dataDir,
    PORT: String(port),
    BASE_URL: baseUrl,
    LOG_LEVEL: 'fatal',
    SCRUB_INTERVAL_HOURS: '24',
  });
  t.teardown(async () => {
    platform.child.kill('SIGKILL');
    await platform.exited;
  });

  let health: { status: number; body: Health } | undefined;
  await waitFor(
    async () => {
      const answer = await fetch(`${baseUrl}/health`);
      health = { status: answer.status, body: (await answer.json()) as Health };
      return health.body.checks.event_store!.status === 'down' && health.body.checks.read_store!.status === 'down';
    },
    { timeoutMs: 60_000, intervalMs: 100, message: '/health to report the damage the scrub found' },
  );
  t.is(health!.status, 503);
  t.is(health!.body.status, 'degraded');
  t.regex(
    health!.body.checks.event_store!.error!,
    /^events\.db is damaged \(found by the scrub at [^:]+:.+\); it is the event log, the source of truth: stop the platform and restore it from a backup/,
  );
  t.regex(
    health!.body.checks.read_store!.error!,
    /read-models\.db is damaged \(found by the scrub at .+\); .*run `npm run rebuild`/,
  );

  const metrics = parsePrometheusText(await (await fetch(`${baseUrl}/metrics`)).text());
  const value = (name: string) => metrics.find((sample) => sample.name === name)?.value;
  t.is(value('scrub_damage_found'), 2);
  t.is(value('scrub_last_clean_timestamp_seconds'), 0, 'no clean scrub yet');
});
