/**
 * `npm test` and the tier scripts: ava over the compiled tree (support/compiled-tests.mjs), built
 * or brought up to date before the run, without tsx. `npx ava test/<file>.ts` still runs one file
 * through tsx with package.json's configuration.
 */
import { join } from 'node:path';
import { COMPILED_TESTS_DIR, compiledTests } from './support/compiled-tests.mjs';

export default async ({ projectDir }) => {
  await compiledTests(projectDir);
  return {
    files: [join(COMPILED_TESTS_DIR, 'test', '**', '*.test.js')],
    // No tsx; ava adds --enable-source-maps, so stack traces and failure excerpts name the TypeScript source.
    nodeArguments: [],
    workerThreads: false,
    timeout: '120s',
    concurrency: 2,
  };
};
