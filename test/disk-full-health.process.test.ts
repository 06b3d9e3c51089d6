/**
 * Issue 27, defects 3 and 5: on a full disk /health must not say `ok` while appends fail, and the
 * projections' failures must name the cause (not `cannot rollback - no transaction is active`).
 * The disk fills up through `ulimit -f` on the platform's process: every file it writes is capped,
 * so SQLite's writes fail as on a full file system.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devToken, freePort, startPlatformProcess } from './support/platform-process.js';

const FILE_SIZE_LIMIT_KIB = 1200;

test('on a full disk, /health answers 503 degraded naming the refused appends, and projection failures log the cause', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-full-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const platform = await startPlatformProcess(
    { DATA_DIR: dataDir, PORT: String(port), BASE_URL: baseUrl, LOG_LEVEL: 'error' },
    undefined, // the default deadline: 30 s was too little for a start under tsx on a loaded machine
    undefined,
    FILE_SIZE_LIMIT_KIB,
  );
  t.teardown(async () => {
    platform.child.kill('SIGKILL');
    await platform.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  const token = await devToken(baseUrl, dataDir);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const create = (i: number) =>
    fetch(`${baseUrl}/api/v1/notification-channels`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: `c${i}`,
        type: 'email',
        config: { recipients: ['oncall@example.com'], subject_template: 'x'.repeat(500) },
      }),
    });

  // Creates until the log refuses a whole batch (about 1,000 fit under the cap; bounded well above
  // that). Not the first refusal: near the cap a refused append can be followed by one that still
  // fits (a checkpoint or a smaller event), and a success rightly clears the refusal /health reports.
  let refused: Response | undefined;
  for (let i = 0; i < 3000 && !refused; i += 20) {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, k) => create(i + k)));
    if (answers.every((answer) => answer.status === 503)) refused = answers[0];
  }
  t.truthy(refused, 'an append was refused');
  t.is(refused!.headers.get('content-type'), 'application/problem+json');

  const health = await fetch(`${baseUrl}/health`);
  const body = (await health.json()) as { status: string; checks: Record<string, { status: string; error?: string }> };
  t.is(health.status, 503);
  t.is(body.status, 'degraded');
  t.is(body.checks.event_store!.status, 'down');
  t.regex(body.checks.event_store!.error!, /refusing appends since .*(disk|full|I\/O)/);
  t.is((await fetch(`${baseUrl}/health/ready`)).status, 503, 'readiness says the same');
  t.is((await fetch(`${baseUrl}/health/live`)).status, 200, 'liveness does not ask for a restart that cures nothing');

  t.regex(platform.output(), /projection failed to apply events/, 'the read models hit the full disk too');
  t.notRegex(
    platform.output(),
    /cannot rollback - no transaction is active/,
    'the failure names its cause, not the ROLLBACK after it',
  );
});
