/** Analysts read the sync tables directly: the README documents every column of every table, with its type and key. */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { SYNC_TABLES } from '../src/syncstore/tables.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

for (const table of Object.values(SYNC_TABLES)) {
  test(`the README documents the ${table.name} table: every column with its type, and the key`, (t) => {
    const start = readme.indexOf(`#### \`${table.name}\``);
    t.true(start >= 0, 'a section for the table');
    const section = readme.slice(start, readme.indexOf('\n#', start + 5));
    t.true(section.includes(`Primary key: \`(${table.key.join(', ')})\``));
    for (const column of table.columns) t.true(section.includes(`| \`${column.name}\` | ${column.type} |`), column.name);
  });
}

test('the README names every SYNC_ configuration variable', (t) => {
  for (const name of ['SYNC_DATABASE_URL', 'SYNC_INTERVALS', 'SYNC_TIMEZONE', 'SYNC_STREAM_PERIOD_SECONDS', 'SYNC_STREAMS_PER_TENANT', 'SYNC_SCHEDULER', 'SYNC_RUN_TIMEOUT_SECONDS']) {
    t.true(readme.includes(`| \`${name}\` |`), name);
  }
});
