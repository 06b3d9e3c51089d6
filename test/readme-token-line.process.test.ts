/**
 * The README's token line, run as a user would (bash + curl + node) against the built-in identity
 * provider: a wrong secret stops with the provider's error instead of going on with TOKEN=undefined.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startPlatform, type RunningPlatform } from '../src/platform.js';
import { freePort, startPlatformProcess } from './support/platform-process.js';

const README_BASE = 'http://localhost:3000';
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const tokenLine = /```sh\n(TOKEN=\$\(curl[\s\S]*?)```/.exec(readme)?.[1];

let platform: RunningPlatform;
test.before(async () => {
  platform = await startPlatform(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: README_BASE,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ww-readme-')),
      LOG_LEVEL: 'silent',
    }),
  );
});
test.after.always(async () => platform?.stop());

const run = (script: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile('bash', ['-c', script], { timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

/** The README's snippet aimed at the test server (the audience stays the README's BASE_URL). */
const snippet = (id: string, secret: string) =>
  tokenLine!
    .replaceAll(`${README_BASE}/oauth/token`, `${platform.url}/oauth/token`)
    .replaceAll(`${README_BASE}/api/v1`, `${platform.url}/api/v1`)
    .replace('<id>', id)
    .replace('<secret>', secret);

test('the README token line lists channels with the right secret', async (t) => {
  t.truthy(tokenLine, 'the README has the token line');
  const client = platform.devClient!;
  const result = await run(snippet(client.client_id, client.client_secret));
  t.is(result.code, 0, result.stderr);
  t.like(JSON.parse(result.stdout), { success: true, data: [] });
});

test('the README token line stops with invalid_client on a wrong secret', async (t) => {
  const result = await run(snippet(platform.devClient!.client_id, 'wrong-secret'));
  t.not(result.code, 0);
  t.regex(result.stderr, /^invalid_client: unknown client or wrong secret$/m);
  t.is(result.stdout, '', 'the channel list is not requested with an empty token');
});

test('the token line npm start prints also stops with invalid_client on a wrong secret', async (t) => {
  const url = `http://127.0.0.1:${await freePort()}`;
  const started = await startPlatformProcess({
    PORT: new URL(url).port,
    BASE_URL: url,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'ww-printed-')),
  });
  try {
    const printed = started.output().split('\n');
    const first = printed.findIndex((line) => line.trim().startsWith('TOKEN=$(curl'));
    t.true(first >= 0, started.output());
    const line = printed
      .slice(first, first + 4)
      .map((l) => l.trim())
      .join('\n');
    const secret = /client_secret=(\S+)/.exec(started.output())![1]!;
    const right = await run(line);
    t.is(right.code, 0, right.stderr);
    t.like(JSON.parse(right.stdout), { success: true, data: [] });
    const wrong = await run(line.replace(secret, 'wrong-secret'));
    t.not(wrong.code, 0);
    t.regex(wrong.stderr, /^invalid_client: unknown client or wrong secret$/m);
    t.is(wrong.stdout, '');
  } finally {
    started.child.kill('SIGTERM');
    await started.exited;
  }
});
