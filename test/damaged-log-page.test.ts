/**
 * Issue 27, defect 2: one unreadable page of events.db. The platform keeps serving what it can
 * read, but the requests that need the damaged page answer a 503 problem (not a 500), and /health
 * says 503 naming the damaged file and its recovery.
 */
import test from 'ava';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devToken, freePort, startPlatformProcess, type PlatformProcess } from './support/platform-process.js';

const PAGE = 4096;

test('a zeroed 4 KiB page in the middle of events.db: its streams answer 503 problems, and /health is 503 naming events.db', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-page-'));
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
  let headers = { authorization: `Bearer ${await devToken(baseUrl, dataDir)}`, 'content-type': 'application/json' };
  const channel = (name: string, subject = 'x'.repeat(300)) => JSON.stringify({ name, type: 'email', config: { recipients: ['oncall@example.com'], subject_template: subject } });
  const ids: string[] = [];
  for (let i = 0; i < 300; i += 20) {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, k) => fetch(`${baseUrl}/api/v1/notification-channels`, { method: 'POST', headers, body: channel(`c${i + k}`) })));
    for (const answer of answers) ids.push(((await answer.json()) as { data: { id: string } }).data.id);
  }
  // A clean stop copies the WAL into events.db; then one page in its middle is zeroed.
  running.child.kill('SIGTERM');
  t.is(await running.exited, 0);
  const file = join(dataDir, 'events.db');
  const middle = Math.floor(statSync(file).size / 2 / PAGE) * PAGE;
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(PAGE), 0, PAGE, middle);
  closeSync(fd);

  running = await startPlatformProcess(env);
  headers = { authorization: `Bearer ${await devToken(baseUrl, dataDir)}`, 'content-type': 'application/json' };
  const statuses = new Map<number, number>();
  let damaged: { status: number; type: string | null; detail: string } | undefined;
  for (const id of ids) {
    for (const [method, path] of [['GET', `/api/v1/notification-channels/${id}/events`], ['PUT', `/api/v1/notification-channels/${id}`]] as const) {
      const answer = await fetch(`${baseUrl}${path}`, { method, headers, body: method === 'PUT' ? channel('renamed', 's') : undefined });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 503) damaged ??= { status: 503, type: answer.headers.get('content-type'), detail: ((await answer.json()) as { detail: string }).detail };
      else await answer.arrayBuffer();
    }
  }
  t.false(statuses.has(500), `no 500 among ${JSON.stringify([...statuses])}`);
  t.truthy(damaged, 'the streams on the zeroed page answer 503');
  t.is(damaged!.type, 'application/problem+json');
  t.regex(damaged!.detail, /damaged/);
  t.true((statuses.get(200) ?? 0) > 0, 'the streams elsewhere are served');

  const health = await fetch(`${baseUrl}/health`);
  const body = (await health.json()) as { status: string; checks: Record<string, { status: string; error?: string }> };
  t.is(health.status, 503);
  t.is(body.status, 'degraded');
  t.is(body.checks.event_store!.status, 'down');
  t.regex(body.checks.event_store!.error!, /events\.db is damaged .*malformed.*backup/);
});
