/**
 * The README and the docs/ folder are part of the product: the permission table must match the
 * code's, the front door must show the two commands, and every path and link must resolve.
 */
import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PERMISSIONS } from '../src/access/permissions.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const readme = read('README.md');
/** Every Markdown file of the documentation, as paths from the repository root. */
const documents = [
  'README.md',
  'bench/README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

test('the permissions document lists every permission with the description the code has', (t) => {
  const permissions = read('docs/authentication-and-permissions.md');
  for (const [permission, description] of Object.entries(PERMISSIONS)) {
    t.true(permissions.includes(`| \`${permission}\` | ${description} |`), permission);
  }
  const listed = [...permissions.matchAll(/^\| `([a-z]+:[a-z]+)` \|/gm)].map((m) => m[1]);
  t.deepEqual(listed.sort(), Object.keys(PERMISSIONS).sort(), 'no permission in the document that the code lacks');
});

test('the README shows the two commands', (t) => {
  t.true(readme.includes('npm ci && npm start'));
  t.true(readme.includes('npm ci && npm test'));
});

test('the README stays a front door: at most about 300 lines, linking every file of docs/', (t) => {
  t.true(readme.split('\n').length <= 320, `${readme.split('\n').length} lines`);
  for (const document of documents.filter((path) => path.startsWith('docs/')))
    t.true(readme.includes(`](${document})`), document);
});

test('every file and folder the README\'s "Where is X?" section names exists', (t) => {
  const start = readme.indexOf('### Where is X?');
  const end = readme.slice(start + 1).search(/\n#{2,3} /);
  const section = end < 0 ? readme.slice(start) : readme.slice(start, start + 1 + end);
  t.true(start >= 0 && section.length > 0, 'the section is there');
  const paths = [...section.matchAll(/`((?:src|commands|queries|projections|test|bench)\/[\w./-]+)`/g)].map(
    (m) => m[1]!,
  );
  t.true(paths.length >= 20, `found ${paths.length} paths`);
  const missing = paths.filter((path) => !path.includes('<') && !existsSync(join(root, path)));
  t.deepEqual(missing, []);
});

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const anchorsOf = (markdown: string) =>
  new Set(
    markdown
      .replace(/```[\s\S]*?```/g, '')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) =>
        line
          .replace(/^#+ /, '')
          .trim()
          .toLowerCase()
          .replace(/[^\p{L}\p{N} _-]/gu, '')
          .replaceAll(' ', '-'),
      ),
  );

for (const document of documents) {
  test(`${document} points at nothing outside the repository (SPEC.md and DESIGN.md are kept with the brief), and its links resolve`, (t) => {
    const text = read(document);
    const here = dirname(join(root, document));
    const outside = [...text.matchAll(/\.\.\/[\w./-]+/g)]
      .map((m) => m[0])
      .filter((path) => relative(root, resolve(here, path)).startsWith('..'));
    t.deepEqual(outside, [], 'no path above the repository');
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!)
      .filter((link) => !/^(https?:|mailto:)/.test(link));
    const broken = links.filter((link) => {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? join(root, document) : resolve(here, path);
      if (!existsSync(target)) return true;
      return anchor !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor);
    });
    t.deepEqual(broken, [], 'every relative link and its anchor resolve');
  });
}
