import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLockedError, acquireDataDirLock } from '../src/eventstore/data-dir-lock.js';
import { holdDataDirLockInChild } from './support/data-dir-lock-holder-process.js';
import { freePort, startPlatformProcess } from './support/platform-process.js';

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
  void other.then((holder) => holder.kill(), () => {}); // should it get the lock after all
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
  t.true(readFileSync(join(dir, 'instance.lock.owner'), 'utf8').includes(`"pid":${process.pid}`), 'the new holder is named');
  release();
  t.false(existsSync(join(dir, 'instance.lock.owner')), 'a clean release leaves no owner behind');
});

test('an owner file naming a process that no longer exists does not block', (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'instance.lock.owner'), JSON.stringify({ pid: 2 ** 22 + 1, hostname: 'gone', since: '2020-01-01T00:00:00Z' }));
  const release = acquireDataDirLock(dir);
  t.pass();
  release();
});

test('a second platform started on the same DATA_DIR refuses to start and names the running one', async (t) => {
  const dataDir = tempDir();
  const port = await freePort();
  const first = await startPlatformProcess({ DATA_DIR: dataDir, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` });
  try {
    const otherPort = await freePort();
    const second = startPlatformProcess({ DATA_DIR: dataDir, PORT: String(otherPort), BASE_URL: `http://127.0.0.1:${otherPort}` }, 20_000);
    // Should it start after all, stop it rather than leave it running past the test.
    void second.then((running) => running.child.kill('SIGKILL'), () => {});
    const error = await t.throwsAsync(second);
    t.regex(error!.message, /exited with 1/);
    t.regex(error!.message, new RegExp(`${escape(dataDir)}.*in use.*pid ${first.child.pid}`));
  } finally {
    first.child.kill('SIGTERM');
    await first.exited;
  }
});
