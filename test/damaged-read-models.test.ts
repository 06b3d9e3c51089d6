/**
 * Issue 27, defect 4: a damaged read-model file. Start-up names the file and the command that
 * recovers it; `npm run rebuild` sets the damaged file aside and rebuilds every read model from
 * the log; the platform then serves what it served before.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devToken, freePort, startPlatformProcess, type PlatformProcess } from './support/platform-process.js';
import { startTestApp } from './support/test-app.js';

const PAGE = 4096;

function zeroPage(file: string, offset: number) {
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(PAGE), 0, PAGE, offset);
  closeSync(fd);
}

test('a zeroed first page of read-models.db: start-up names the file and `npm run rebuild`, which sets it aside and rebuilds from the log', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-rm-damage-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const app = await startTestApp({ dataDir });
  const caller = app.newTenant();
  for (let i = 0; i < 12; i++) {
    await app.request('POST', '/notification-channels', { caller, body: { name: `c${i}`, type: 'email', config: { recipients: ['a@example.com'], subject_template: 's' } } });
  }
  const before = (await app.request('GET', '/notification-channels', { caller })).body.data;
  t.is(before.length, 12);
  await app.close();
  const file = join(dataDir, 'read-models.db');
  t.true(statSync(file).size > PAGE);
  zeroPage(file, 0);

  const port = await freePort();
  const error = await t.throwsAsync(startPlatformProcess({ DATA_DIR: dataDir, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` }, 30_000));
  t.regex(error!.message, /start-up failed: .*read-models\.db is damaged \(.*\); .*npm run rebuild/);

  const rebuild = spawnSync(process.execPath, ['--import', 'tsx', 'src/rebuild-cli.ts', 'channels'], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout: 60_000,
  });
  t.is(rebuild.status, 0, rebuild.stderr);
  t.regex(rebuild.stderr, /read-models\.db is damaged .*set aside as .*read-models\.db\.damaged-.*rebuilding every read model/);
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
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-rm-page-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = { DATA_DIR: dataDir, PORT: String(port), BASE_URL: baseUrl, LOG_LEVEL: 'fatal' };
  let running: PlatformProcess | undefined;
  t.teardown(async () => {
    running?.child.kill('SIGKILL');
    await running?.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  running = await startPlatformProcess(env);
  let token = await devToken(baseUrl, dataDir);
  const channel = (i: number) => JSON.stringify({ name: `c${i}`, type: 'email', config: { recipients: ['a@example.com'], subject_template: 's'.repeat(300) } });
  for (let i = 0; i < 40; i++) {
    const created = await fetch(`${baseUrl}/api/v1/notification-channels`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: channel(i) });
    t.is(created.status, 201);
  }
  running.child.kill('SIGTERM');
  t.is(await running.exited, 0);

  // The root page of the channels' table, once the WAL is in the file: every list of channels reads it.
  const file = join(dataDir, 'read-models.db');
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'rm_channels'").get() as { rootpage: number };
  t.is(db.pragma('page_size', { simple: true }), PAGE);
  db.close();
  zeroPage(file, (rootpage - 1) * PAGE);

  running = await startPlatformProcess(env);
  token = await devToken(baseUrl, dataDir);
  const list = await fetch(`${baseUrl}/api/v1/notification-channels?limit=200`, { headers: { authorization: `Bearer ${token}` } });
  t.is(list.status, 503, 'the channels list reads the zeroed page');
  t.is(list.headers.get('content-type'), 'application/problem+json');
  t.regex(((await list.json()) as { detail: string }).detail, /damaged/);
  const health = await fetch(`${baseUrl}/health`);
  const body = (await health.json()) as { status: string; checks: Record<string, { status: string; error?: string }> };
  t.is(health.status, 503);
  t.is(body.checks.read_store!.status, 'down');
  t.regex(body.checks.read_store!.error!, /read-models\.db is damaged .*npm run rebuild/);
});
