/**
 * A test file's name says its tier (docs/testing.md, "Tiers"), so `npm run test:unit`,
 * `test:process` and `test:browser` can pick files by name: a file that (through its support
 * modules) spawns a process is `*.process.test.ts`, one that drives Chromium `*.browser.test.ts`,
 * one that starts the platform in this process `*.http.test.ts` (or one of the two above).
 */
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const testDir = join(root, 'test');

/** What a module does that decides its tier, seen in its own text. */
const OWN_SIGNS = {
  process: /from ['"]node:child_process['"]|\bnew Worker\(/,
  browser: /from ['"]playwright-core['"]/,
  http: /\bstartPlatform\(/,
} as const;
type Sign = keyof typeof OWN_SIGNS;

const relativeImports = (file: string, text: string) =>
  [...text.matchAll(/(?:from\s+|import\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)].map((m) =>
    resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')),
  );

/** The signs of a test module and of every test support module it reaches (src/ is not followed). */
export function signsOf(file: string, read: (path: string) => string | null, seen = new Set<string>()): Set<Sign> {
  const signs = new Set<Sign>();
  if (seen.has(file)) return signs;
  seen.add(file);
  const text = read(file);
  if (text === null) return signs;
  for (const sign of Object.keys(OWN_SIGNS) as Sign[]) if (OWN_SIGNS[sign].test(text)) signs.add(sign);
  for (const target of relativeImports(file, text)) {
    if (!target.startsWith(join(testDir, 'support'))) continue;
    for (const sign of signsOf(target, read, seen)) signs.add(sign);
  }
  return signs;
}

const readOrNull = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

export function tierOffence(name: string, signs: Set<Sign>): string | null {
  if (signs.has('process') && !name.endsWith('.process.test.ts'))
    return `${name} spawns a process: name it *.process.test.ts`;
  if (signs.has('browser') && !name.endsWith('.browser.test.ts'))
    return `${name} drives Chromium: name it *.browser.test.ts`;
  if (signs.has('http') && !/\.(http|process|browser)\.test\.ts$/.test(name))
    return `${name} starts the platform: name it *.http.test.ts`;
  return null;
}

test('the tier check sees each sign through support modules (the check itself can fail)', (t) => {
  const files: Record<string, string> = {
    [join(testDir, 'x.test.ts')]: "import { run } from './support/runner.js';",
    [join(testDir, 'support', 'runner.ts')]: "import { spawn } from 'node:child_process';",
    [join(testDir, 'y.test.ts')]: "import { startTestApp } from './support/app.js';",
    [join(testDir, 'support', 'app.ts')]: 'const platform = await startPlatform(config);',
  };
  const read = (path: string) => files[path] ?? null;
  t.deepEqual([...signsOf(join(testDir, 'x.test.ts'), read)], ['process']);
  t.is(
    tierOffence('x.test.ts', signsOf(join(testDir, 'x.test.ts'), read)),
    'x.test.ts spawns a process: name it *.process.test.ts',
  );
  t.is(
    tierOffence('y.test.ts', signsOf(join(testDir, 'y.test.ts'), read)),
    'y.test.ts starts the platform: name it *.http.test.ts',
  );
  t.is(tierOffence('y.http.test.ts', signsOf(join(testDir, 'y.test.ts'), read)), null);
});

test('every test file is named for its tier', (t) => {
  // This file's own fixtures hold every sign as text, so it is left out of its own walk.
  const names = readdirSync(testDir).filter((name) => name.endsWith('.test.ts') && name !== 'test-tiers.test.ts');
  t.true(names.length > 200);
  const offences = names.flatMap((name) => tierOffence(name, signsOf(join(testDir, name), readOrNull)) ?? []);
  t.deepEqual(offences, [], relative(root, testDir));
});
