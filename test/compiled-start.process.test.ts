/**
 * `npm start` runs compiled JavaScript (src/start.mjs, src/compiled-build.mjs): the build mirrors
 * the source tree, is reused while the sources are unchanged, and the platform started from it
 * serves what it serves under tsx, threads and all.
 */
import test from 'ava';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiledTree } from '../src/compiled-build.mjs';
import { devToken, freePort, startPlatformProcess } from './support/platform-process.js';

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );

/** A project with one module, in the shape compiledTree reads. */
function tinyProject(moduleText: string) {
  const root = mkdtempSync(join(tmpdir(), 'ww-compile-'));
  for (const dir of ['src', 'commands', 'projections', 'queries']) mkdirSync(join(root, dir));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ type: 'module', version: '1.2.3' }));
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2023', strict: true } }));
  writeFileSync(join(root, 'src', 'answer.ts'), moduleText);
  writeFileSync(join(root, 'src', 'notes.md'), '# kept as it is\n');
  return root;
}

const answerModule = (value: number) => `
import type { Server } from 'node:http';
export class Counter { count: number = ${value}; server?: Server; }
export const answer = (n: number): number => new Counter().count + n;
`;

test('a build transpiles the TypeScript, copies the other files, and is reused until the sources change', async (t) => {
  const root = tinyProject(answerModule(40));
  const cache = mkdtempSync(join(tmpdir(), 'ww-compile-cache-'));

  const first = await compiledTree(root, cache);
  t.true(first.built);
  t.deepEqual(
    filesUnder(first.dir)
      .map((f) => relative(first.dir, f))
      .sort(),
    ['package.json', 'src/answer.js', 'src/answer.js.map', 'src/notes.md', 'tsconfig.json'],
  );
  const compiled = (await import(pathToFileURL(join(first.dir, 'src', 'answer.js')).href)) as {
    answer: (n: number) => number;
    Counter: new () => object;
  };
  t.is(compiled.answer(2), 42);
  // Class fields keep the define semantics of the tsconfig's target, as under tsx: a declared field is an own property.
  t.deepEqual(Object.keys(new compiled.Counter()), ['count', 'server']);
  t.regex(readFileSync(join(first.dir, 'src', 'answer.js'), 'utf8'), /sourceMappingURL=answer\.js\.map/);
  t.is(
    JSON.parse(readFileSync(join(first.dir, 'src', 'answer.js.map'), 'utf8')).sources[0],
    join(root, 'src', 'answer.ts'),
  );

  const again = await compiledTree(root, cache);
  t.deepEqual(again, { dir: first.dir, built: false });

  writeFileSync(join(root, 'src', 'answer.ts'), answerModule(41));
  const changed = await compiledTree(root, cache);
  t.true(changed.built);
  t.not(changed.dir, first.dir);
  t.is(
    (
      (await import(pathToFileURL(join(changed.dir, 'src', 'answer.js')).href)) as { answer: (n: number) => number }
    ).answer(2),
    43,
  );
  t.true(existsSync(first.dir), 'an older build stays for a platform that may still run from it');
});

test('a build outside the tree links its packages; one inside (the default) finds them by walking up', async (t) => {
  const root = tinyProject(answerModule(1));
  mkdirSync(join(root, 'node_modules'));
  const outside = await compiledTree(root, mkdtempSync(join(tmpdir(), 'ww-compile-cache-')));
  t.is(realpathSync(join(outside.dir, 'node_modules')), realpathSync(join(root, 'node_modules')));
  const inside = await compiledTree(root);
  t.is(relative(root, inside.dir).split('/').slice(0, 2).join('/'), 'node_modules/.cache');
  t.false(existsSync(join(inside.dir, 'node_modules')), 'no link back into node_modules from inside it');
});

test('only the newest builds are kept, and partial builds once they are abandoned', async (t) => {
  const root = tinyProject(answerModule(0));
  const cache = mkdtempSync(join(tmpdir(), 'ww-compile-cache-'));
  // A killed start's partial build two hours ago, and one another start is writing now.
  const abandoned = join(cache, '0123456789abcdef.tmp-1-1');
  const inProgress = join(cache, '0123456789abcdef.tmp-2-2');
  mkdirSync(abandoned);
  mkdirSync(inProgress);
  const twoHoursAgo = (Date.now() - 7_200_000) / 1000;
  utimesSync(abandoned, twoHoursAgo, twoHoursAgo);
  const dirs: string[] = [];
  for (let i = 1; i <= 6; i++) {
    writeFileSync(join(root, 'src', 'answer.ts'), answerModule(i));
    dirs.push((await compiledTree(root, cache)).dir);
  }
  t.deepEqual(readdirSync(cache).sort(), [...dirs.slice(-4), inProgress].map((d) => relative(cache, d)).sort());
});

test('npm start runs the compiled tree: commands, projections on the writer thread, OpenAPI and the dashboard', async (t) => {
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  const [, flags, entry] = /^exec node (.*) (\S+)$/.exec(start)!;
  t.is(entry, 'src/start.mjs');
  const cache = mkdtempSync(join(tmpdir(), 'ww-start-cache-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-start-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const platform = await startPlatformProcess(
    { DATA_DIR: dataDir, PORT: String(port), BASE_URL: baseUrl, BUILD_CACHE_DIR: cache },
    60_000,
    [...flags!.split(' '), entry!],
  );
  try {
    const [build] = readdirSync(cache);
    t.truthy(build);
    const built = filesUnder(join(cache, build!)).map((f) => relative(join(cache, build!), f));
    t.true(built.includes('src/main.js'));
    t.true(built.includes('src/sqlite/background-checkpointer-worker.mjs'));
    t.true(built.some((f) => f.startsWith('src/assistant/runbooks/') && f.endsWith('.md')));
    t.deepEqual(
      built.filter((f) => f.endsWith('.ts') && !f.startsWith('src/dashboard/web/')),
      [],
      'no server TypeScript is left to tsx',
    );

    const token = await devToken(baseUrl, dataDir);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${baseUrl}/api/v1/notification-channels`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'compiled',
        type: 'email',
        config: { recipients: ['oncall@example.com'], subject_template: 'x' },
      }),
    });
    t.is(created.status, 201);
    const { data } = (await created.json()) as { data: { id: string } };
    const listed = (await (await fetch(`${baseUrl}/api/v1/notification-channels`, { headers })).json()) as {
      data: { id: string }[];
    };
    t.deepEqual(
      listed.data.map((c) => c.id),
      [data.id],
    );

    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    t.is(
      ((await (await fetch(`${baseUrl}/openapi.json`)).json()) as { info: { version: string } }).info.version,
      version,
    );
    const script = await fetch(`${baseUrl}/dashboard/app.js`);
    t.is(script.status, 200);
    t.true((await script.text()).length > 1000);
  } finally {
    platform.child.kill('SIGTERM');
  }
  t.is(await platform.exited, 0);
  t.notRegex(platform.output(), /Error:|ERR_|"level":(50|60)/, 'nothing failed, the runbooks index included');
});
