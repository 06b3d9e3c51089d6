/** The README is part of the product: its permission table must match the code's. */
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { PERMISSIONS } from '../src/auth/permissions.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

test('the README lists every permission with the description the code has', (t) => {
  for (const [permission, description] of Object.entries(PERMISSIONS)) {
    t.true(readme.includes(`| \`${permission}\` | ${description} |`), permission);
  }
  const listed = [...readme.matchAll(/^\| `([a-z]+:[a-z]+)` \|/gm)].map((m) => m[1]);
  t.deepEqual(listed.sort(), Object.keys(PERMISSIONS).sort(), 'no permission in the README that the code lacks');
});

test('the README shows the two commands', (t) => {
  t.true(readme.includes('npm ci && npm start'));
  t.true(readme.includes('npm ci && npm test'));
});

test('every file and folder the README\'s "Where is X?" section names exists', (t) => {
  const start = readme.indexOf('### Where is X?');
  const section = readme.slice(start, readme.indexOf('\n### ', start + 1));
  t.true(start >= 0 && section.length > 0, 'the section is there');
  const paths = [...section.matchAll(/`((?:src|commands|queries|projections|test|bench)\/[\w./-]+)`/g)].map((m) => m[1]!);
  t.true(paths.length >= 20, `found ${paths.length} paths`);
  const missing = paths.filter((path) => !path.includes('<') && !existsSync(new URL(`../${path}`, import.meta.url)));
  t.deepEqual(missing, []);
});

test('the README points at nothing outside the repository (SPEC.md and DESIGN.md are kept with the brief)', (t) => {
  t.deepEqual([...readme.matchAll(/\.\.\/[\w./-]+/g)].map((m) => m[0]), [], 'no path above the repository');
  const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((link) => !/^(https?:|mailto:|#)/.test(link));
  t.deepEqual(links.filter((link) => !existsSync(new URL(`../${link.split('#')[0]}`, import.meta.url))), [], 'every relative link resolves');
});
