import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireDataDirLock } from '../src/eventstore/data-dir-lock.js';
import { startTestApp } from './support/test-app.js';
import { nodeEntry } from './support/node-entry.js';

const rebuild = (dataDir: string, ...args: string[]) =>
  spawnSync(process.execPath, [...nodeEntry('src/rebuild-cli.ts'), ...args], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });

test('npm run rebuild refuses a DATA_DIR without an event store, and creates none', (t) => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'ww-rebuild-empty-')), 'data');
  const run = rebuild(dataDir);
  t.is(run.status, 1, run.stdout);
  t.regex(
    run.stderr,
    new RegExp(`no event store at ${join(dataDir, 'events.db').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
  );
  t.notRegex(run.stdout, /events applied/);
  t.false(existsSync(join(dataDir, 'events.db')), 'no empty store was created');
});

test('npm run rebuild refuses while a platform holds DATA_DIR, unless --force', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-rebuild-locked-'));
  const app = await startTestApp({ dataDir });
  const caller = app.newTenant();
  await app.request('POST', '/notification-channels', {
    caller,
    body: { name: 'c', type: 'email', config: { recipients: ['a@example.com'], subject_template: 's' } },
  });
  await app.close();

  // This test process stands in for the running platform: it holds the lock npm start takes.
  const release = acquireDataDirLock(dataDir);
  try {
    const refused = rebuild(dataDir, 'channels');
    t.is(refused.status, 1, refused.stdout);
    t.regex(refused.stderr, new RegExp(`in use by another platform instance \\(pid ${process.pid}\\b`));
    t.regex(refused.stderr, /--force/);
    t.notRegex(refused.stdout, /events applied/);

    const forced = rebuild(dataDir, '--force', 'channels');
    t.is(forced.status, 0, forced.stderr);
    t.regex(forced.stderr, /--force: rebuilding while/);
    t.regex(forced.stdout, /channels\s+\[#+\] 100% 1 events applied/);
  } finally {
    release();
  }

  const unlocked = rebuild(dataDir, 'channels');
  t.is(unlocked.status, 0, unlocked.stderr);
  t.regex(unlocked.stdout, /channels\s+\[#+\] 100% 1 events applied/);
});

test('npm run rebuild refuses an option it does not know', (t) => {
  const run = rebuild(mkdtempSync(join(tmpdir(), 'ww-rebuild-opt-')), '--frce');
  t.is(run.status, 2);
  t.regex(run.stderr, /unknown option --frce/);
});
