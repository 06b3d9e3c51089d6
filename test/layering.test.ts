/**
 * Dependencies point one way (DESIGN.md sections 2 and 10). The layers and what each may import are
 * one table, in docs/architecture.md; this test reads that table and walks every relative import of
 * every source file, so a new import across layers fails here with the file pair named.
 * And queries/ is the read side: it serves GET routes only (commands have their routes in commands/).
 */
import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_FOLDERS = ['src', 'commands', 'queries', 'projections'];

export interface Layer {
  name: string;
  patterns: RegExp[];
  mayImport: string[];
}

const patternOf = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*/g, '\u0000')
      .replace(/\*/g, '[^/]*')
      .replace(/\u0000/g, '.*')}$`,
  );

const codeSpans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** The rows of the table under "## Layers": | `name` | `glob`, … | `layer`, … or — |. */
export function layersOf(markdown: string): Layer[] {
  const section = markdown.split(/^## Layers$/m)[1]?.split(/^## /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => /^\|\s*`/.test(line))
    .map((line) => {
      const [name, files, mayImport] = line
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim());
      return {
        name: codeSpans(name!)[0]!,
        patterns: codeSpans(files!).map(patternOf),
        mayImport: codeSpans(mayImport!),
      };
    });
}

const layers = layersOf(readFileSync(join(root, 'docs', 'architecture.md'), 'utf8'));
const layerOf = (path: string) => layers.find((layer) => layer.patterns.some((pattern) => pattern.test(path)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sourceFiles(path);
    return /\.(ts|tsx|mts|mjs)$/.test(name) ? [path] : [];
  });
}

/**
 * Relative import specifiers of a file, resolved to repository paths: static imports and re-exports,
 * side-effect imports (`import './x.js'`) and import expressions (`await import('./x.js')`, and
 * `import('./x.js').Type` in type positions).
 */
export function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const fromClauses = [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm)];
  const bareOrExpression = [...text.matchAll(/(?:^\s*import\s+|\bimport\(\s*)['"](\.{1,2}\/[^'"]+)['"]/gm)];
  return [...fromClauses, ...bareOrExpression].map((m) => relative(root, resolve(dirname(file), m[1]!)));
}

/** An import's target as a source path: `./x.js` is the file `x.ts` (or `x.tsx`), `./x` likewise. */
const sourcePathOf = (target: string) => target.replace(/\.js$/, '.ts').replace(/^([^.]*)$/, '$1.ts');

/** Offences of one file: imports into a layer its own layer does not allow. */
export function offencesOf(file: string, imports: string[], table: Layer[] = layers): string[] {
  const find = (path: string) => table.find((layer) => layer.patterns.some((pattern) => pattern.test(path)));
  const from = find(file);
  if (!from) return [`${file} belongs to no layer of docs/architecture.md`];
  return imports.flatMap((target) => {
    const to = find(sourcePathOf(target)) ?? find(sourcePathOf(target).replace(/\.ts$/, '.tsx'));
    if (!to || to.name === from.name || from.mayImport.includes(to.name)) return [];
    return [`${file} (${from.name}) imports ${target} (${to.name}), which ${from.name} may not import`];
  });
}

test('the table has the layers, and every layer it names exists', (t) => {
  t.true(layers.length >= 20, `only ${layers.length} layers read from docs/architecture.md`);
  const names = new Set(layers.map((layer) => layer.name));
  t.is(names.size, layers.length, 'a layer is named twice');
  t.deepEqual(
    layers.flatMap((layer) =>
      layer.mayImport.filter((name) => !names.has(name)).map((name) => `${layer.name} → ${name}`),
    ),
    [],
  );
});

test('the table allows no cycle', (t) => {
  const byName = new Map(layers.map((layer) => [layer.name, layer]));
  const cycles: string[] = [];
  const visit = (name: string, path: string[]) => {
    if (path.includes(name)) return void cycles.push([...path.slice(path.indexOf(name)), name].join(' → '));
    for (const next of byName.get(name)!.mayImport) visit(next, [...path, name]);
  };
  for (const layer of layers) visit(layer.name, []);
  t.deepEqual(cycles, []);
});

test('the check itself can fail: it names the file pair of an import the table does not allow', (t) => {
  const file = join(root, 'queries', 'example.ts');
  const imports = importsOf(
    file,
    "import { x } from '../commands/users.js';\nimport type { Y } from '../src/events/user.js';\n",
  );
  t.deepEqual(imports, ['commands/users.js', 'src/events/user.js']);
  const hidden =
    "import '../commands/roles.js';\nconst m = await import('../commands/groups.js');\ntype T = import('../commands/channels.js').ChannelCommand;\n";
  t.deepEqual(importsOf(file, hidden), ['commands/roles.js', 'commands/groups.js', 'commands/channels.js']);
  t.deepEqual(offencesOf('queries/example.ts', imports), [
    'queries/example.ts (queries) imports commands/users.js (deciders), which queries may not import',
  ]);
  t.deepEqual(offencesOf('src/events/x.ts', ['src/commanding/decider.js']).length, 1);
  t.deepEqual(offencesOf('src/auth/x.ts', ['queries/users.js']).length, 1);
  t.deepEqual(offencesOf('elsewhere/x.ts', []), ['elsewhere/x.ts belongs to no layer of docs/architecture.md']);
});

test('every source file belongs to a layer and imports only what its layer may', (t) => {
  const files = SOURCE_FOLDERS.flatMap((folder) => sourceFiles(join(root, folder)));
  t.true(files.length > 500, `only ${files.length} source files found`);
  const offences = files.flatMap((file) => offencesOf(relative(root, file), importsOf(file)));
  t.deepEqual(offences, []);
});

test('each layer of the table holds at least one file (no stale rows)', (t) => {
  const files = SOURCE_FOLDERS.flatMap((folder) => sourceFiles(join(root, folder))).map((file) => relative(root, file));
  const used = new Set(files.map((file) => layerOf(file)?.name));
  t.deepEqual(
    layers.map((layer) => layer.name).filter((name) => !used.has(name)),
    [],
  );
});

/** Routes a file registers with a method that changes something (a path literal starting with '/'). */
export const changingRoutesOf = (text: string) =>
  [...text.matchAll(/\.(post|put|patch|delete|all)\(\s*['"`](\/[^'"`]*)/g)].map(
    (m) => `${m[1]!.toUpperCase()} ${m[2]!}`,
  );

test('the route check sees a changing route and lets GET routes and Map deletes pass', (t) => {
  t.deepEqual(changingRoutesOf("router.get('/things', a);\nrouter.post('/things', b);\nfeeds.delete(key);\n"), [
    'POST /things',
  ]);
});

test('queries/ serves GET routes only', (t) => {
  const offences = sourceFiles(join(root, 'queries')).flatMap((file) =>
    changingRoutesOf(readFileSync(file, 'utf8')).map((route) => `${relative(root, file)}: ${route}`),
  );
  t.deepEqual(offences, []);
});
