/**
 * The restore procedure (docs, operations: "Backup and restore"), executed: `npm run backup` under a
 * bounded write load, then restore into a fresh DATA_DIR, `npm run verify`, start, and every write
 * acknowledged before the backup began is there.
 */
import test from 'ava';
import { execFile, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';
import { nodeEntry } from './support/node-entry.js';

const run = promisify(execFile);
const WRITERS = 4;
/** The load is bounded: this many creates at most, whatever the backup's speed. */
const MAX_CREATES = 600;

/** Creates channels from WRITERS loops until stopped; records each acknowledged create and when. */
function writeLoad(app: TestApp, caller: Caller) {
  const acknowledged: { id: string; at: number }[] = [];
  let stopped = false;
  let issued = 0;
  const writer = async () => {
    while (!stopped && issued < MAX_CREATES) {
      issued += 1;
      const created = await app.request('POST', '/notification-channels', {
        caller,
        body: { name: `c${issued}`, type: 'email', config: { recipients: ['a@example.com'], subject_template: 's' } },
      });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
      acknowledged.push({ id: created.body.data.id, at: performance.now() });
    }
  };
  const done = Promise.all(Array.from({ length: WRITERS }, writer));
  return { acknowledged, stop: () => ((stopped = true), done) };
}

test('a backup taken under write load restores into a fresh DATA_DIR with every write acknowledged before it began, and verify passes', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-backup-src-'));
  const backupDir = join(mkdtempSync(join(tmpdir(), 'ww-backup-')), 'copy');
  const app = await startTestApp({ dataDir });
  const caller = app.newTenant();
  const load = writeLoad(app, caller);
  await waitFor(() => load.acknowledged.length >= 50, { timeoutMs: 30_000, message: 'the load to be under way' });

  const began = performance.now();
  const backup = await run(process.execPath, [...nodeEntry('src/backup-cli.ts'), backupDir], {
    env: { ...process.env, DATA_DIR: dataDir },
  });
  const ended = performance.now();
  const countAt = load.acknowledged.length;
  await load.stop();
  await app.close();
  t.regex(backup.stdout, /backed up read-models\.db, events\.db, secrets\.key.* to .*\(log head position \d+\)/);
  const before = load.acknowledged.filter((write) => write.at < began);
  t.true(
    load.acknowledged.some((write) => write.at > began && write.at < ended),
    'writes were acknowledged while the backup ran',
  );
  t.true(countAt > before.length);
  t.is(statSync(join(backupDir, 'events.db')).mode & 0o777, 0o600);
  t.is(statSync(join(backupDir, 'secrets.key')).mode & 0o777, 0o600);
  t.regex(readFileSync(join(backupDir, 'backup.json'), 'utf8'), /"logHeadPosition": "\d+"/);

  // The documented restore: copy the backup's files into a fresh DATA_DIR, verify, start.
  const restored = mkdtempSync(join(tmpdir(), 'ww-restored-'));
  cpSync(backupDir, restored, { recursive: true });
  const verify = spawnSync(process.execPath, nodeEntry('src/verify-cli.ts'), {
    env: { ...process.env, DATA_DIR: restored },
    encoding: 'utf8',
  });
  t.is(verify.status, 0, verify.stderr);
  t.regex(verify.stdout, /event log intact/);

  const again = await startTestApp({ dataDir: restored });
  t.teardown(() => again.close());
  const missing: string[] = [];
  for (const { id } of before) {
    // In the read model and in the log alike.
    if ((await again.request('GET', `/notification-channels/${id}`, { caller })).status !== 200)
      missing.push(`${id} (read model)`);
    if (
      (await again.request('GET', `/notification-channels/${id}/events`, { caller })).body.data?.[0]?.type !==
      'ChannelCreated'
    )
      missing.push(`${id} (log)`);
  }
  t.deepEqual(missing, [], `all ${before.length} writes acknowledged before the backup began are restored`);
});

test('backup refuses a non-empty target, a DATA_DIR without a log, and a missing argument', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-backup-none-'));
  const backup = (args: string[]) =>
    spawnSync(process.execPath, [...nodeEntry('src/backup-cli.ts'), ...args], {
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    });
  t.is(backup([]).status, 2);
  const nothing = backup([join(dataDir, 'copy')]);
  t.is(nothing.status, 1);
  t.regex(nothing.stderr, /no event store at .*events\.db: nothing to back up/);
  const full = backup([join(process.cwd(), 'src')]);
  t.is(full.status, 1);
  t.regex(full.stderr, /is not empty/);
});

test('backed-up key files are readable by their owner only, whatever the mode of the originals', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-backup-keys-'));
  const log = openSqliteEventStore({ filename: join(dataDir, 'events.db') });
  await log.append('s-1', [
    {
      type: 'Probe',
      data: {},
      metadata: {
        tenantId: 't',
        actor: 'a',
        correlationId: 'c',
        causationId: 'c',
        occurredAt: new Date().toISOString(),
      },
    },
  ]);
  await log.close();
  // Given key files someone left readable by everyone
  for (const name of ['secrets.key', 'dev-client.json']) {
    writeFileSync(join(dataDir, name), `${name} contents\n`);
    chmodSync(join(dataDir, name), 0o644);
  }
  const target = join(dataDir, 'copy');
  const result = spawnSync(process.execPath, [...nodeEntry('src/backup-cli.ts'), target], {
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  t.is(result.status, 0, result.stderr);
  for (const name of ['secrets.key', 'dev-client.json']) {
    t.is(statSync(join(target, name)).mode & 0o777, 0o600, name);
    t.is(readFileSync(join(target, name), 'utf8'), `${name} contents\n`);
  }
});

test("an existing empty target of mode 0777 is tightened to 0700 when it is ours, and refused when it is another user's", async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-backup-dir-'));
  const log = openSqliteEventStore({ filename: join(dataDir, 'events.db') });
  await log.append('s-1', [
    {
      type: 'Probe',
      data: {},
      metadata: {
        tenantId: 't',
        actor: 'a',
        correlationId: 'c',
        causationId: 'c',
        occurredAt: new Date().toISOString(),
      },
    },
  ]);
  await log.close();
  const backup = (target: string) =>
    spawnSync(process.execPath, [...nodeEntry('src/backup-cli.ts'), target], {
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    });

  const ours = join(dataDir, 'ours');
  mkdirSync(ours);
  chmodSync(ours, 0o777);
  const tightened = backup(ours);
  t.is(tightened.status, 0, tightened.stderr);
  t.is(statSync(ours).mode & 0o777, 0o700, 'nobody else may list, replace or remove the copy');
  t.regex(tightened.stdout, /mode 0777 tightened to 0700/);

  // Another user's directory open to the group or everyone cannot be made private by us: refused, nothing written.
  const theirs = join(dataDir, 'theirs');
  mkdirSync(theirs);
  chmodSync(theirs, 0o777);
  if (process.getuid?.() !== 0) return t.pass('only root can give a directory to another user here');
  chownSync(theirs, 65534, 65534);
  const refused = backup(theirs);
  t.is(refused.status, 1);
  t.regex(
    refused.stderr,
    /theirs is writable or readable by other users \(mode 0777\) and owned by user 65534: give the backup a directory of your own/,
  );
  t.deepEqual(readdirSync(theirs), []);
  t.is(statSync(theirs).mode & 0o777, 0o777);
});
