/**
 * Dependencies point one way (DESIGN.md sections 2 and 10): queries and projections read models
 * and events, never commands; commands reach read models only through functions the composition
 * root passes in; the model (src/events) depends on none of the three. This walks every import.
 * And queries/ is the read side: it serves GET routes only (commands have their routes in commands/).
 */
import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const FORBIDDEN: { from: string; mayNotImport: string[] }[] = [
  { from: 'queries', mayNotImport: ['commands'] },
  { from: 'projections', mayNotImport: ['commands', 'queries'] },
  { from: 'commands', mayNotImport: ['projections', 'queries'] },
  { from: 'src/events', mayNotImport: ['commands', 'projections', 'queries'] },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
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

const violates = (target: string, folder: string) => target === folder || target.startsWith(`${folder}/`);

test('the import walk sees a forbidden import (the check itself can fail)', (t) => {
  const file = join(root, 'queries', 'example.ts');
  const imports = importsOf(file, "import { x } from '../commands/users.js';\nimport type { Y } from '../src/events/user.js';\n");
  t.deepEqual(imports, ['commands/users.js', 'src/events/user.js']);
  const hidden = "import '../commands/roles.js';\nconst m = await import('../commands/groups.js');\ntype T = import('../commands/channels.js').ChannelCommand;\n";
  t.deepEqual(importsOf(file, hidden), ['commands/roles.js', 'commands/groups.js', 'commands/channels.js']);
  t.true(violates(imports[0]!, 'commands'));
  t.false(violates(imports[1]!, 'commands'));
});

for (const rule of FORBIDDEN) {
  test(`${rule.from}/ imports nothing from ${rule.mayNotImport.join(', ')}`, (t) => {
    const files = sourceFiles(join(root, rule.from));
    t.true(files.length > 0, `no source files under ${rule.from}`);
    const offences = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => rule.mayNotImport.some((folder) => violates(target, folder)))
        .map((target) => `${relative(root, file)} imports ${target}`),
    );
    t.deepEqual(offences, []);
  });
}

/** Routes a file registers with a method that changes something (a path literal starting with '/'). */
export const changingRoutesOf = (text: string) =>
  [...text.matchAll(/\.(post|put|patch|delete|all)\(\s*['"`](\/[^'"`]*)/g)].map((m) => `${m[1]!.toUpperCase()} ${m[2]!}`);

test('the route check sees a changing route and lets GET routes and Map deletes pass', (t) => {
  t.deepEqual(changingRoutesOf("router.get('/things', a);\nrouter.post('/things', b);\nfeeds.delete(key);\n"), ['POST /things']);
});

test('queries/ serves GET routes only', (t) => {
  const offences = sourceFiles(join(root, 'queries')).flatMap((file) => changingRoutesOf(readFileSync(file, 'utf8')).map((route) => `${relative(root, file)}: ${route}`));
  t.deepEqual(offences, []);
});
