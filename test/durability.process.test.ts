import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devToken, freePort, startPlatformProcess } from './support/platform-process.js';

test('SIGKILL right after 2xx commands loses nothing, and the projections converge after restart', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-kill-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = { DATA_DIR: dataDir, PORT: String(port), BASE_URL: baseUrl };

  const first = await startPlatformProcess(env);
  const token = await devToken(baseUrl, dataDir);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const body = (i: number) =>
    JSON.stringify({
      name: `c${i}`,
      type: 'email',
      config: { recipients: ['oncall@example.com'], subject_template: 'x' },
    });
  const responses = await Promise.all(
    Array.from({ length: 25 }, (_, i) =>
      fetch(`${baseUrl}/api/v1/notification-channels`, { method: 'POST', headers, body: body(i) }),
    ),
  );
  t.true(responses.every((r) => r.status === 201));
  const ids = await Promise.all(responses.map(async (r) => ((await r.json()) as { data: { id: string } }).data.id));
  first.child.kill('SIGKILL');
  await first.exited;

  const second = await startPlatformProcess(env);
  const again = await devToken(baseUrl, dataDir);
  const list = await fetch(`${baseUrl}/notification-channels?limit=200`, {
    headers: { authorization: `Bearer ${again}` },
  });
  const listed = ((await list.json()) as { data: { id: string }[] }).data.map((c) => c.id).sort();
  t.deepEqual(listed, [...ids].sort());
  const health = await fetch(`${baseUrl}/health`);
  t.is(health.status, 200);
  second.child.kill('SIGTERM');
  t.is(await second.exited, 0);
});

test('a bad configuration value stops start-up with one line naming the variable', async (t) => {
  const error = await t.throwsAsync(
    startPlatformProcess({ PORT: 'eighty', DATA_DIR: mkdtempSync(join(tmpdir(), 'ww-cfg-')) }, 20_000),
  );
  t.regex(error!.message, /invalid configuration: PORT: /);
});
