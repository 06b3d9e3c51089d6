/**
 * Dependencies point one way (DESIGN.md sections 2 and 10): queries and projections read models
 * and events, never commands; commands reach read models only through functions the composition
 * root passes in; the model (src/events) depends on none of the three. This walks every import.
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

/** Relative import specifiers of a file (static imports and re-exports), resolved to repository paths. */
export function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm)].map((m) => m[1]!);
  return specifiers.map((specifier) => relative(root, resolve(dirname(file), specifier)));
}

const violates = (target: string, folder: string) => target === folder || target.startsWith(`${folder}/`);

test('the import walk sees a forbidden import (the check itself can fail)', (t) => {
  const file = join(root, 'queries', 'example.ts');
  const imports = importsOf(file, "import { x } from '../commands/users.js';\nimport type { Y } from '../src/events/user.js';\n");
  t.deepEqual(imports, ['commands/users.js', 'src/events/user.js']);
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
