/** Analysts read the sync tables directly: docs/sync.md documents every column of every table, with its type and key. */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { SYNC_TABLES } from '../src/syncstore/tables.js';

const syncDocument = readFileSync(new URL('../docs/sync.md', import.meta.url), 'utf8');
const configurationDocument = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8');

for (const table of Object.values(SYNC_TABLES)) {
  test(`docs/sync.md documents the ${table.name} table: every column with its type, and the key`, (t) => {
    const start = syncDocument.indexOf(`### \`${table.name}\``);
    t.true(start >= 0, 'a section for the table');
    const section = syncDocument.slice(start, syncDocument.indexOf('\n#', start + 5));
    t.true(section.includes(`Primary key: \`(${table.key.join(', ')})\``));
    for (const column of table.columns)
      t.true(section.includes(`| \`${column.name}\` | ${column.type} |`), column.name);
  });
}

test('docs/configuration.md names every SYNC_ configuration variable', (t) => {
  for (const name of [
    'SYNC_DATABASE_URL',
    'SYNC_INTERVALS',
    'SYNC_TIMEZONE',
    'SYNC_STREAM_PERIOD_SECONDS',
    'SYNC_STREAMS_PER_USER',
    'SYNC_STREAMS_PER_TENANT',
    'SYNC_SCHEDULER',
    'SYNC_RUN_TIMEOUT_SECONDS',
  ]) {
    t.true(configurationDocument.includes(`| \`${name}\` |`), name);
  }
});
