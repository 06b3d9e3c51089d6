/**
 * Issue 27, defect 2: one unreadable page of events.db. The platform keeps serving what it can
 * read, but the requests that need the damaged page answer a 503 problem (not a 500), and /health
 * says 503 naming the damaged file and its recovery.
 */
import test from 'ava';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { PAGE, platformInTempDir, zeroPage } from './support/damaged-files.js';

test('a zeroed 4 KiB page in the middle of events.db: its streams answer 503 problems, and /health is 503 naming events.db', async (t) => {
  const platform = await platformInTempDir(t, 'ww-page-');
  const { baseUrl } = platform;
  let headers = await platform.start();
  const channel = (name: string, subject = 'x'.repeat(300)) =>
    JSON.stringify({ name, type: 'email', config: { recipients: ['oncall@example.com'], subject_template: subject } });
  const ids: string[] = [];
  for (let i = 0; i < 300; i += 20) {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, k) =>
        fetch(`${baseUrl}/api/v1/notification-channels`, { method: 'POST', headers, body: channel(`c${i + k}`) }),
      ),
    );
    for (const answer of answers) ids.push(((await answer.json()) as { data: { id: string } }).data.id);
  }
  // A clean stop copies the WAL into events.db; then one page in its middle is zeroed.
  t.is(await platform.stop(), 0);
  const file = join(platform.dataDir, 'events.db');
  zeroPage(file, Math.floor(statSync(file).size / 2 / PAGE) * PAGE);

  headers = await platform.start();
  const statuses = new Map<number, number>();
  let damaged: { status: number; type: string | null; detail: string } | undefined;
  for (const id of ids) {
    for (const [method, path] of [
      ['GET', `/api/v1/notification-channels/${id}/events`],
      ['PUT', `/api/v1/notification-channels/${id}`],
    ] as const) {
      const answer = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: method === 'PUT' ? channel('renamed', 's') : undefined,
      });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 503)
        damaged ??= {
          status: 503,
          type: answer.headers.get('content-type'),
          detail: ((await answer.json()) as { detail: string }).detail,
        };
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
