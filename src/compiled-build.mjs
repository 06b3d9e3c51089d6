/**
 * The JavaScript that `npm start` runs: every TypeScript module of the server transpiled once by
 * esbuild (no bundling, the same tree), next to a copy of the files that are not TypeScript (the
 * checkpointer's worker, the runbooks, the dashboard's browser sources, package.json), so each
 * module finds its neighbours where it does in the source tree. tsx would transpile the same
 * modules at every start and, at run time, call its `__name` helper wherever a named function is
 * created and keep a loader thread: 1–19 % of a create's CPU in four comparisons, and a second of
 * start-up (bench/README.md).
 *
 * Plain JavaScript, because it runs before anything is compiled. A build is kept per content hash
 * of its inputs under node_modules/.cache/warehouse-watch, written to a temporary directory and
 * renamed into place: a half-written build is never started, two starts at once agree, and a
 * running platform keeps the build it started from while a changed tree gets its own.
 */
import { transform, version as esbuildVersion } from 'esbuild';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';

/** The server's source trees; the dashboard's browser code is copied, then bundled on first use. */
const SOURCE_DIRS = ['src', 'commands', 'projections', 'queries'];
const BROWSER_SOURCES = join('src', 'dashboard', 'web');
/** Builds kept besides the one in use: a platform still running from an older tree keeps its files. */
const KEPT_BUILDS = 3;
/** Bump when the output's shape changes, so an old build is not reused. */
const FORMAT = 'esm-node20-external-maps-1';

const isServerTypeScript = (path) =>
  path.endsWith('.ts') && !path.endsWith('.d.ts') && !path.startsWith(BROWSER_SOURCES + '/');

function inputsOf(root) {
  const files = ['package.json', 'tsconfig.json'];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(path);
    }
  };
  for (const dir of SOURCE_DIRS) walk(dir);
  return files.sort();
}

function hashOf(root, files) {
  const hash = createHash('sha256').update(`${FORMAT}\0${esbuildVersion}\0${process.version}\0`);
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

async function writeBuild(root, files, target) {
  mkdirSync(target, { recursive: true });
  // Packages resolve from the build as from the sources. Inside the tree (the default, under
  // node_modules/.cache) Node finds them by walking up; elsewhere (BUILD_CACHE_DIR) a link points at
  // them. The default gets no link, so node_modules holds no cycle for tools that walk it.
  const outside = relative(root, target).startsWith('..') || isAbsolute(relative(root, target));
  if (outside && existsSync(join(root, 'node_modules')))
    symlinkSync(join(root, 'node_modules'), join(target, 'node_modules'), 'dir');
  const tsconfigRaw = readFileSync(join(root, 'tsconfig.json'), 'utf8');
  await Promise.all(
    files.map(async (file) => {
      const out = join(target, file);
      mkdirSync(dirname(out), { recursive: true });
      if (!isServerTypeScript(file)) return copyFileSync(join(root, file), out);
      const source = join(root, file);
      const result = await transform(readFileSync(source, 'utf8'), {
        loader: 'ts',
        format: 'esm',
        target: 'node20',
        tsconfigRaw,
        sourcemap: 'external',
        // Stack traces name the TypeScript file itself (node --enable-source-maps).
        sourcefile: source,
      });
      const js = out.replace(/\.ts$/, '.js');
      writeFileSync(`${js}.map`, result.map);
      writeFileSync(js, `${result.code}//# sourceMappingURL=${basename(js)}.map\n`);
    }),
  );
}

/** Removes all but the newest builds (and temporary directories a killed build left behind). */
function prune(cacheDir, current) {
  const usedAt = (name) => {
    try {
      return statSync(join(cacheDir, name)).mtimeMs;
    } catch {
      return undefined; // removed meanwhile by another start's prune
    }
  };
  const builds = readdirSync(cacheDir)
    .filter((name) => name !== current)
    .map((name) => ({ name, used: usedAt(name) }))
    .filter((b) => b.used !== undefined)
    .sort((a, b) => b.used - a.used);
  const partial = (b) => b.name.includes('.tmp-');
  // A partial build younger than an hour may be another start's, still being written.
  const abandoned = builds.filter((b) => partial(b) && Date.now() - b.used > 3_600_000);
  const older = builds.filter((b) => !partial(b)).slice(KEPT_BUILDS);
  for (const b of [...abandoned, ...older]) rmSync(join(cacheDir, b.name), { recursive: true, force: true });
}

/**
 * The compiled tree of `root` (built if this content has not been built yet), and whether this
 * call built it. `cacheDir` defaults to root/node_modules/.cache/warehouse-watch.
 */
export async function compiledTree(root, cacheDir = join(root, 'node_modules', '.cache', 'warehouse-watch')) {
  const files = inputsOf(root);
  const hash = hashOf(root, files);
  const target = join(cacheDir, hash);
  let built = false;
  if (!existsSync(target)) {
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${target}.tmp-${process.pid}-${Date.now()}`;
    try {
      await writeBuild(root, files, partial);
      renameSync(partial, target);
      built = true;
    } catch (error) {
      rmSync(partial, { recursive: true, force: true });
      // Another start renamed the same content into place first: use it.
      if (!existsSync(target)) throw error;
    }
  }
  // Marks the build as used, to the microsecond: pruning keeps the newest by this time.
  const now = (performance.timeOrigin + performance.now()) / 1000;
  utimesSync(target, now, now);
  prune(cacheDir, hash);
  return { dir: target, built };
}
