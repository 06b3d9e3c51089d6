import test from 'ava';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireDataDirLock } from '../src/eventstore/data-dir-lock.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { sampleEvent } from './support/eventstore-contract.js';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

// The permissive umask of many containers (and of `umask 0` in a shell): the modes must not depend on it.
test.before(() => process.umask(0));

test('the event log, its WAL and shared-memory files are created 0600 in a data directory created 0700', async (t) => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'ww-modes-')), 'data');
  const store = openSqliteEventStore({ filename: join(dataDir, 'events.db') });
  await store.append('s-1', [sampleEvent('A')]);
  t.is(modeOf(dataDir), '700');
  for (const file of ['events.db', 'events.db-wal', 'events.db-shm']) {
    t.true(existsSync(join(dataDir, file)), file);
    t.is(modeOf(join(dataDir, file)), '600', file);
  }
  await store.close();
});

test('the read-model database and its WAL files are created 0600', async (t) => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'ww-modes-')), 'data');
  const store = openSqliteReadStore(join(dataDir, 'read-models.db'));
  await store.applyBatch({ projection: 'p', version: 1 }, [{ position: 1n }], (_event, writer) =>
    writer.upsert('things', { id: 'a' }),
  );
  t.is(modeOf(dataDir), '700');
  for (const file of ['read-models.db', 'read-models.db-wal', 'read-models.db-shm']) {
    t.true(existsSync(join(dataDir, file)), file);
    t.is(modeOf(join(dataDir, file)), '600', file);
  }
  await store.close();
});

test('the instance lock files are 0600, in a data directory created 0700', (t) => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'ww-modes-')), 'data');
  const release = acquireDataDirLock(dataDir);
  t.is(modeOf(dataDir), '700');
  t.is(modeOf(join(dataDir, 'instance.lock')), '600');
  t.is(modeOf(join(dataDir, 'instance.lock.owner')), '600');
  release();
});

test('files a previous version left world-readable are tightened on open; an existing directory is left as it is', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-modes-'));
  chmodSync(dataDir, 0o755);
  const first = openSqliteEventStore({ filename: join(dataDir, 'events.db') });
  await first.append('s-1', [sampleEvent('A')]);
  await first.close();
  for (const file of ['events.db', 'events.db-wal', 'events.db-shm']) {
    if (!existsSync(join(dataDir, file))) writeFileSync(join(dataDir, file), '');
    chmodSync(join(dataDir, file), 0o644);
  }
  const second = openSqliteEventStore({ filename: join(dataDir, 'events.db') });
  for (const file of ['events.db', 'events.db-wal', 'events.db-shm']) t.is(modeOf(join(dataDir, file)), '600', file);
  t.is(modeOf(dataDir), '755', 'DATA_DIR may be a directory the operator owns, such as /var/lib/x: not ours to change');
  await second.close();
});

test('a data directory created on the way is 0700 at every level created', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'ww-modes-'));
  mkdirSync(join(root, 'existing'), { mode: 0o755 });
  chmodSync(join(root, 'existing'), 0o755);
  const store = openSqliteEventStore({ filename: join(root, 'existing', 'new', 'data', 'events.db') });
  t.is(modeOf(join(root, 'existing')), '755');
  t.is(modeOf(join(root, 'existing', 'new')), '700');
  t.is(modeOf(join(root, 'existing', 'new', 'data')), '700');
  await store.close();
});
