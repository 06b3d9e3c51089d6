/**
 * The embedded PostgreSQL's kept fresh cluster (src/syncstore/pglite-template.ts): the first open
 * keeps it, the next ones load it, a database that already exists is never replaced by it, and a
 * damaged template is forgotten instead of failing the open.
 */
import test from 'ava';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPgliteConnection } from '../src/syncstore/pglite-connection.js';
import { templateFile } from '../src/syncstore/pglite-template.js';

const freshDir = (name: string) => mkdtempSync(join(tmpdir(), `ww-pglite-${name}-`));
/** One template for the first two tests (each initdb costs seconds of CPU); serial, as the second loads it. */
const sharedTemplateDir = freshDir('template');

test.serial(
  'the first open keeps a template; the next loads it into a working database without rewriting it',
  async (t) => {
    const templateDir = sharedTemplateDir;
    const first = await openPgliteConnection({ templateDir });
    await first.close();
    const kept = templateFile(templateDir);
    t.true(existsSync(kept), 'the first open kept the fresh cluster');
    const keptAt = statSync(kept).mtimeMs;

    const second = await openPgliteConnection({ templateDir, schema: 'loaded' });
    await second.query('CREATE TABLE things (id int primary key, name text)');
    await second.query('INSERT INTO things VALUES ($1, $2)', [1, 'one']);
    t.deepEqual((await second.query('SELECT name FROM things')).rows, [{ name: 'one' }]);
    await second.close();
    t.is(statSync(kept).mtimeMs, keptAt, 'loaded, not made again');
  },
);

test.serial('a data directory that holds a database keeps it: the template is only for a new one', async (t) => {
  const templateDir = sharedTemplateDir;
  const dataDir = join(freshDir('data'), 'sync-pg');
  const made = await openPgliteConnection({ dataDir, templateDir });
  await made.query('CREATE TABLE kept (note text)');
  await made.query(`INSERT INTO kept VALUES ('still here')`);
  await made.close();

  const reopened = await openPgliteConnection({ dataDir, templateDir });
  t.deepEqual((await reopened.query('SELECT note FROM kept')).rows, [{ note: 'still here' }]);
  await reopened.close();
});

test.serial('a damaged template is forgotten: the open runs initdb and keeps a good one', async (t) => {
  const templateDir = freshDir('template');
  writeFileSync(templateFile(templateDir), 'not a tarball of a cluster');
  const opened = await openPgliteConnection({ templateDir });
  t.deepEqual((await opened.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
  await opened.close();
  t.true(statSync(templateFile(templateDir)).size > 1_000_000, 'a real cluster replaced the damaged file');
});
