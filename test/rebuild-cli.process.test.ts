import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from './support/test-app.js';
import { nodeEntry } from './support/node-entry.js';

test('npm run rebuild rebuilds the named projections from the log into the same read model', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-rebuild-'));
  const app = await startTestApp({ dataDir });
  const caller = app.newTenant();
  for (let i = 0; i < 5; i++) {
    await app.request('POST', '/notification-channels', {
      caller,
      body: { name: `c${i}`, type: 'email', config: { recipients: ['a@example.com'], subject_template: 's' } },
    });
  }
  const before = (await app.request('GET', '/notification-channels', { caller })).body.data;
  await app.close();

  const run = spawnSync(process.execPath, [...nodeEntry('src/rebuild-cli.ts'), 'channels'], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  t.is(run.status, 0, run.stderr);
  t.regex(run.stdout, /channels\s+\[#+\] 100% 5 events applied/);

  const again = await startTestApp({ dataDir });
  t.deepEqual((await again.request('GET', '/notification-channels', { caller })).body.data, before);
  await again.close();

  const unknown = spawnSync(process.execPath, [...nodeEntry('src/rebuild-cli.ts'), 'nope'], {
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  t.is(unknown.status, 2);
  t.regex(unknown.stderr, /unknown projection nope; known: channels/);
});
