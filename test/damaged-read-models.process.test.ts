/**
 * Issue 27, defect 4: a damaged read-model file. Start-up names the file and the command that
 * recovers it; `npm run rebuild` sets the damaged file aside and rebuilds every read model from
 * the log; the platform then serves what it served before.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAGE, platformInTempDir, zeroPage } from './support/damaged-files.js';
import { freePort, startPlatformProcess } from './support/platform-process.js';
import { startTestApp } from './support/test-app.js';
import { setAsideIfDamaged } from '../src/readstore/set-aside-damaged.js';
import { nodeEntry } from './support/node-entry.js';

test('a zeroed first page of read-models.db: start-up names the file and `npm run rebuild`, which sets it aside and rebuilds from the log', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-rm-damage-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const app = await startTestApp({ dataDir });
  const caller = app.newTenant();
  for (let i = 0; i < 12; i++) {
    await app.request('POST', '/notification-channels', {
      caller,
      body: { name: `c${i}`, type: 'email', config: { recipients: ['a@example.com'], subject_template: 's' } },
    });
  }
  const before = (await app.request('GET', '/notification-channels', { caller })).body.data;
  t.is(before.length, 12);
  await app.close();
  const file = join(dataDir, 'read-models.db');
  t.true(statSync(file).size > PAGE);
  zeroPage(file, 0);

  const port = await freePort();
  const error = await t.throwsAsync(
    // The default deadline (120 s): with 30 s a loaded machine failed this as "did not start", not as the refusal.
    startPlatformProcess({ DATA_DIR: dataDir, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` }),
  );
  t.regex(error!.message, /start-up failed: .*read-models\.db is damaged \(.*\); .*npm run rebuild/);

  const rebuild = spawnSync(process.execPath, [...nodeEntry('src/rebuild-cli.ts'), 'channels'], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  t.is(rebuild.status, 0, rebuild.stderr);
  t.regex(
    rebuild.stderr,
    /read-models\.db is damaged .*set aside as .*read-models\.db\.damaged-.*rebuilding every read model/,
  );
  t.regex(rebuild.stdout, /channels\s+\[#+\] 100% 12 events applied/);
  t.regex(rebuild.stdout, /incidents\s+\[#+\] 100%/, 'every read model, not only the one named');
  const aside = readdirSync(dataDir).filter((name) => name.startsWith('read-models.db.damaged-'));
  t.true(aside.length >= 1, 'the damaged copy is kept');
  t.true(existsSync(file));

  const again = await startTestApp({ dataDir });
  t.teardown(() => again.close());
  t.deepEqual((await again.request('GET', '/notification-channels', { caller })).body.data, before);
});

test('a zeroed page of read-models.db (the channels table): reads that need it answer 503 problems, never 500, and /health names the file and `npm run rebuild`', async (t) => {
  const platform = await platformInTempDir(t, 'ww-rm-page-');
  const { baseUrl } = platform;
  let headers = await platform.start();
  const channel = (i: number) =>
    JSON.stringify({
      name: `c${i}`,
      type: 'email',
      config: { recipients: ['a@example.com'], subject_template: 's'.repeat(300) },
    });
  for (let i = 0; i < 40; i++) {
    const created = await fetch(`${baseUrl}/api/v1/notification-channels`, {
      method: 'POST',
      headers,
      body: channel(i),
    });
    t.is(created.status, 201);
  }
  t.is(await platform.stop(), 0);

  // The root page of the channels' table, once the WAL is in the file: every list of channels reads it.
  const file = join(platform.dataDir, 'read-models.db');
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'rm_channels'").get() as {
    rootpage: number;
  };
  t.is(db.pragma('page_size', { simple: true }), PAGE);
  db.close();
  zeroPage(file, (rootpage - 1) * PAGE);

  headers = await platform.start();
  const list = await fetch(`${baseUrl}/api/v1/notification-channels?limit=200`, { headers });
  t.is(list.status, 503, 'the channels list reads the zeroed page');
  t.is(list.headers.get('content-type'), 'application/problem+json');
  t.regex(((await list.json()) as { detail: string }).detail, /damaged/);
  const health = await fetch(`${baseUrl}/health`);
  const body = (await health.json()) as { status: string; checks: Record<string, { status: string; error?: string }> };
  t.is(health.status, 503);
  t.is(body.checks.read_store!.status, 'down');
  t.regex(body.checks.read_store!.error!, /read-models\.db is damaged .*npm run rebuild/);
});

test('a damaged file is set aside exactly as found: its WAL is not checkpointed into it on the way', (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'ww-aside-wal-')), 'read-models.db');
  // A writer that checkpointed some pages, wrote more to the WAL, and died without closing.
  const writer = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
    import Database from 'better-sqlite3';
    const db = new Database(${JSON.stringify(file)});
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t(x)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    for (let i = 0; i < 2000; i++) insert.run('x'.repeat(200));
    db.pragma('wal_checkpoint(TRUNCATE)');
    for (let i = 0; i < 500; i++) insert.run('y'.repeat(200));
    process.exit(0);
  `,
    ],
    { cwd: process.cwd(), encoding: 'utf8' },
  );
  t.is(writer.status, 0, writer.stderr);
  zeroPage(file, Math.floor(statSync(file).size / 2 / PAGE) * PAGE);
  const before = { main: readFileSync(file), wal: readFileSync(`${file}-wal`) };
  t.true(before.wal.length > 0, 'the WAL holds frames not yet in the file');
  const moved = setAsideIfDamaged(file);
  t.truthy(moved, 'found damaged');
  t.true(readFileSync(moved!.aside).equals(before.main), 'the damaged file is unchanged');
  t.true(readFileSync(`${moved!.aside}-wal`).equals(before.wal), 'its WAL is kept as it was');
});
