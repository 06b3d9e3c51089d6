/**
 * The README's five-minute walkthrough, run as a user would (bash, curl, node) against a real
 * platform with a short evaluation interval: every curl in it is executed, so it cannot drift.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startPlatform, type RunningPlatform } from '../src/platform.js';
import { freePort } from './support/platform-process.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const walkthrough = /```sh walkthrough\n([\s\S]*?)```/.exec(readme)?.[1];

let platform: RunningPlatform;
let base: string;
test.before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  platform = await startPlatform(
    loadConfig({
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: base,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ww-walkthrough-')),
      LOG_LEVEL: 'silent',
      ALERT_EVALUATION_INTERVAL_SECONDS: '1',
      SSE_HEARTBEAT_SECONDS: '1',
    }),
  );
});
test.after.always(async () => platform?.stop());

test('the five-minute walkthrough runs from a new channel to a resolved incident with its history', async (t) => {
  t.truthy(walkthrough, 'the README has the walkthrough block');
  // The block runs as written: only BASE comes from the environment, as a reader on another port sets it.
  const script = walkthrough!;
  const client = platform.devClient!;
  const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      { timeout: 60_000, env: { ...process.env, BASE: base, ID: client.client_id, SECRET: client.client_secret } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
  t.is(result.code, 0, result.stderr);
  const lines = result.stdout.trim().split('\n');
  t.regex(lines[0]!, /^incident [0-9a-f-]{36} triggered$/);
  t.deepEqual(lines.slice(1, 3), ['acknowledged', 'resolved']);
  const types = lines[3]!.split(' ');
  t.is(types[0], 'IncidentTriggered');
  t.true(types.includes('EscalationStageFired') && types.includes('NotificationDelivered'), lines[3]);
  t.deepEqual(
    types.filter((type) => type.startsWith('Incident')),
    ['IncidentTriggered', 'IncidentAcknowledged', 'IncidentResolved'],
  );
  t.is(lines[4], 'triggered');
});
