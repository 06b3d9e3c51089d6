/**
 * The JavaScript that `npm test` runs: the server's sources and the tests, each TypeScript module
 * transpiled by esbuild into .tmp/compiled-tests (the same tree, no bundling), next to a copy of
 * every other file of those folders. Under tsx each test file's process sends every module it
 * loads, node_modules included, through tsx's loader thread, and each worker thread registers tsx
 * again: about a second of CPU for a pure file and two to three for one that starts the platform
 * (docs/testing.md, "How long it takes"). Plain Node loads the compiled tree without hooks.
 *
 * The sources keep their meaning. A server module finds its neighbours (worker threads, runbooks,
 * package.json) where `npm start`'s build puts them, so its threads run compiled too. A test
 * module's `import.meta.url` is its TypeScript source's, so what a test reads or spawns by a path
 * beside itself (README.md, docs, the stand-ins' entry points) is the file in the work tree; so is
 * the dashboard bundler's, which bundles the browser sources beside it (esbuild would take a
 * compiled `x.js` beside `x.ts`). The browser modules that tests import are compiled as well, their
 * extensionless imports (the browser code's bundler resolution) given the `.js` Node needs.
 *
 * Incremental: a file is rewritten only when its source's modification time differs from the
 * output's (each output takes its source's), each write is a rename of a complete file (two runs at
 * once agree), and outputs whose source is gone are removed. Plain JavaScript: it runs before
 * anything is compiled.
 */
import { transform, version as esbuildVersion } from 'esbuild';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

const SOURCE_DIRS = ['src', 'commands', 'projections', 'queries', 'test'];
/** Modules whose `import.meta.url` stays their source's (see above). */
const AT_SOURCE = [join('src', 'dashboard', 'bundle.ts'), 'test'];
/** Written by tests, never compiled or copied. */
const SKIPPED = [join('test', 'artifacts')];
/** Bump when the output's shape changes, so an older tree is rebuilt. */
const FORMAT = 'esm-node20-inline-maps-source-url-2';
export const COMPILED_TESTS_DIR = join('.tmp', 'compiled-tests');

const isUnder = (path, dirs) => dirs.some((dir) => path === dir || path.startsWith(dir + sep));
const isCompiled = (path) => path.endsWith('.ts') && !path.endsWith('.d.ts');
const outputOf = (path) => (isCompiled(path) ? path.replace(/\.ts$/, '.js') : path);

function inputsOf(root) {
  const files = ['package.json'];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (isUnder(path, SKIPPED)) continue;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(path);
    }
  };
  for (const dir of SOURCE_DIRS) walk(dir);
  return files;
}

function outputsUnder(dir, base = dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? outputsUnder(path, base) : [relative(base, path)];
  });
}

/** `./x` → `./x.js` where the source is `x.ts` (Node resolves no extensionless relative import). */
function withExtensions(root, file, code) {
  const dir = dirname(join(root, file));
  return code.replace(/((?:\bfrom|\bimport)\s*\(?\s*)"(\.{1,2}\/[^"]*)"/g, (whole, before, specifier) => {
    if (existsSync(join(dir, specifier))) return whole;
    if (existsSync(join(dir, `${specifier}.ts`))) return `${before}"${specifier}.js"`;
    if (existsSync(join(dir, specifier, 'index.ts'))) return `${before}"${specifier}/index.js"`;
    return whole;
  });
}

/** The JavaScript of one TypeScript module, its source map inline and pointing at the source. */
async function compiled(root, file, tsconfigRaw) {
  const sourceFromOutput = relative(dirname(join(COMPILED_TESTS_DIR, file)), file)
    .split(sep)
    .join('/');
  const result = await transform(readFileSync(join(root, file), 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    tsconfigRaw,
    sourcemap: 'inline',
    sourcesContent: false,
    sourcefile: sourceFromOutput,
    ...(isUnder(file, AT_SOURCE)
      ? {
          define: { 'import.meta.url': '__sourceUrl' },
          banner: `const __sourceUrl = new URL(${JSON.stringify(sourceFromOutput)}, import.meta.url).href;`,
        }
      : {}),
  });
  return withExtensions(root, file, result.code);
}

/** Brings root/.tmp/compiled-tests up to date with the sources and returns its path. */
export async function compiledTests(root) {
  const out = join(root, COMPILED_TESTS_DIR);
  const stamp = join(out, '.format');
  const tsconfigRaw = readFileSync(join(root, 'tsconfig.json'), 'utf8');
  const format = `${FORMAT} esbuild ${esbuildVersion}\n${tsconfigRaw}`;
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== format) rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const inputs = inputsOf(root);
  const wanted = new Set(inputs.map(outputOf));
  // Another run's file being written (.tmp-<pid>) is left to it.
  for (const stale of outputsUnder(out))
    if (!wanted.has(stale) && stale !== '.format' && !stale.includes('.tmp-')) rmSync(join(out, stale));
  await Promise.all(
    inputs.map(async (file) => {
      const source = join(root, file);
      const target = join(out, outputOf(file));
      const { mtime } = statSync(source);
      // utimes keeps about a millisecond of the time it is given.
      if (existsSync(target) && Math.abs(statSync(target).mtimeMs - mtime.getTime()) < 2) return;
      mkdirSync(dirname(target), { recursive: true });
      const partial = `${target}.tmp-${process.pid}`;
      if (isCompiled(file)) writeFileSync(partial, await compiled(root, file, tsconfigRaw));
      else copyFileSync(source, partial);
      utimesSync(partial, mtime, mtime);
      renameSync(partial, target);
    }),
  );
  writeFileSync(stamp, format);
  return out;
}
