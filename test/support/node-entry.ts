/**
 * The Node arguments that run a module of this repository as a process of its own (the platform,
 * a CLI, a stand-in). Under `npm test` the tests run from the compiled tree, whose path
 * test/ava-compiled.config.mjs passes on in WW_COMPILED_TREE: the child then runs the module's
 * compiled JavaScript as well, as `npm start` runs the platform, instead of sending the platform's
 * 500-odd modules through tsx's loader thread at every start (docs/testing.md, "How long it takes").
 * Under `npx ava test/<file>.ts` there is no compiled tree: the child runs the TypeScript through tsx.
 */
import { isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `source`: the module's TypeScript path, relative to the repository root (the children's cwd) or absolute. */
export function nodeEntry(source: string): string[] {
  const tree = process.env.WW_COMPILED_TREE;
  if (!tree) return ['--import', 'tsx', source];
  const path = isAbsolute(source) ? relative(ROOT, source) : source;
  return ['--enable-source-maps', join(tree, path.replace(/\.ts$/, '.js'))];
}
