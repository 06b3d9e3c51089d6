import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLockedError, acquireDataDirLock } from '../src/eventstore/data-dir-lock.js';
import { holdDataDirLockInChild } from './support/data-dir-lock-holder-process.js';
import { freePort } from './support/platform-process.js';
import { nodeEntry } from './support/node-entry.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'ww-lock-'));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('a second opener in the same process is refused, naming the directory and the holder; after release it succeeds', (t) => {
  const dir = tempDir();
  const release = acquireDataDirLock(dir);
  const error = t.throws(() => acquireDataDirLock(dir), { instanceOf: DataDirLockedError });
  t.regex(error!.message, new RegExp(`${escape(dir)}.*pid ${process.pid}`));
  t.is(error!.holderPid, process.pid);
  release();
  release(); // idempotent
  const again = acquireDataDirLock(dir);
  t.pass();
  again();
});

test('a refused second opener in this process does not weaken the lock held against other processes', async (t) => {
  const dir = tempDir();
  const release = acquireDataDirLock(dir);
  // POSIX drops a process's file locks when it closes any descriptor of the file: a refused
  // opener that touched the lock file through its own descriptor would free it for everyone.
  t.throws(() => acquireDataDirLock(dir), { instanceOf: DataDirLockedError });
  const other = holdDataDirLockInChild(dir);
  void other.then(
    (holder) => holder.kill(),
    () => {},
  ); // should it get the lock after all
  const error = await t.throwsAsync(other);
  t.regex(error!.message, new RegExp(`in use by another platform instance \\(pid ${process.pid}\\b`));
  release();
});

test('a lock held by another process refuses this one; once that process dies (SIGKILL) its stale lock is taken over', async (t) => {
  const dir = tempDir();
  const holder = await holdDataDirLockInChild(dir);
  const error = t.throws(() => acquireDataDirLock(dir), { instanceOf: DataDirLockedError });
  t.regex(error!.message, new RegExp(`${escape(dir)}.*pid ${holder.child.pid}`));
  await holder.kill();

  // The dead holder left its files behind, naming its pid.
  t.true(readFileSync(join(dir, 'instance.lock.owner'), 'utf8').includes(`"pid":${holder.child.pid}`));
  const release = acquireDataDirLock(dir);
  t.true(
    readFileSync(join(dir, 'instance.lock.owner'), 'utf8').includes(`"pid":${process.pid}`),
    'the new holder is named',
  );
  release();
  t.false(existsSync(join(dir, 'instance.lock.owner')), 'a clean release leaves no owner behind');
});

test('an owner file naming a process that no longer exists does not block', (t) => {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'instance.lock.owner'),
    JSON.stringify({ pid: 2 ** 22 + 1, hostname: 'gone', since: '2020-01-01T00:00:00Z' }),
  );
  const release = acquireDataDirLock(dir);
  t.pass();
  release();
});

test('a second platform started on the same DATA_DIR refuses to start and names the running one', async (t) => {
  t.timeout(120_000); // two platform starts; slow on a busy machine
  const dataDir = tempDir();
  const first = spawnPlatform(dataDir, await freePort());
  await first.listening;
  const second = spawnPlatform(dataDir, await freePort());
  t.is(await second.exited, 1, second.output());
  t.regex(
    second.output(),
    new RegExp(
      `start-up failed: DATA_DIR ${escape(dataDir)} is in use by another platform instance \\(pid ${first.child.pid}\\b`,
    ),
  );
  first.child.kill('SIGTERM');
  t.is(await first.exited, 0);
});

/** `npm start` as a child process; killed when this test file's process ends, whatever happens. */
function spawnPlatform(dataDir: string, port: number) {
  const child = spawn(process.execPath, nodeEntry('src/main.ts'), {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => output.includes('is listening on') && resolve());
    void exited.then((code) => reject(new Error(`platform exited with ${code}: ${output}`)));
  });
  listening.catch(() => {});
  return { child, exited, listening, output: () => output };
}

const children = new Set<ChildProcess>();
const killChildren = () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
};
test.after.always(killChildren);
process.once('exit', killChildren);
