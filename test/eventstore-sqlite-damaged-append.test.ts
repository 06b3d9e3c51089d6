/**
 * An append that meets a damaged page of events.db is reported as damage (for /health), not as a
 * passing outage: the SQLite error code crosses the writer thread with the message.
 */
import test from 'ava';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectingLogDamage } from '../src/eventstore/damage-detector.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { isDamagedFileError } from '../src/sqlite/damaged-file.js';
import { PAGE, zeroPage } from './support/zero-page.js';

const meta = () => ({
  tenantId: 't',
  actor: 'a',
  correlationId: 'c',
  causationId: 'c',
  occurredAt: new Date().toISOString(),
});

test('appends over a zeroed page fail with the SQLite code, and the damage detector remembers it', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'ww-damaged-append-')), 'events.db');
  const first = openSqliteEventStore({ filename: file });
  for (let i = 0; i < 300; i++)
    await first.append(`s-${i}`, [{ type: 'Probe', data: { padding: 'x'.repeat(300) }, metadata: meta() }]);
  await first.close();
  // Every page of the file's second half zeroed: the streams and indexes there are unreadable.
  const pages = Math.floor(statSync(file).size / PAGE);
  for (let page = Math.ceil(pages / 2); page < pages; page++) zeroPage(file, page * PAGE);

  const { store, damage } = detectingLogDamage(openSqliteEventStore({ filename: file }));
  const errors: unknown[] = [];
  for (let i = 0; i < 300; i++) {
    await store
      .append(`s-${i}`, [{ type: 'Probe', data: {}, metadata: meta() }], { expectedRevision: 0n })
      .catch((error: unknown) => errors.push(error));
  }
  t.true(errors.length > 0, 'some appends met the damage');
  t.true(
    errors.some(isDamagedFileError),
    `a damaged-file error among: ${errors
      .map((e) => (e as Error).message)
      .slice(0, 3)
      .join(' | ')}`,
  );
  t.truthy(damage(), 'the detector remembers it for /health');
  await store.close().catch(() => undefined);
});
