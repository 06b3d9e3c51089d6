/**
 * `npm test` and the tier scripts: ava over the compiled tree (support/compiled-tests.mjs), built
 * or brought up to date before the run, without tsx. `npx ava test/<file>.ts` still runs one file
 * through tsx with package.json's configuration.
 */
import { join } from 'node:path';
import { COMPILED_TESTS_DIR, compiledTests } from './support/compiled-tests.mjs';

/**
 * The longest files first, so the two workers finish together instead of one running the cluster
 * test alone at the end: the tiers in the order of their files' usual length (process files spawn
 * platforms and wait on real timers, browser files each start a platform and Chromium, http files a
 * platform), then by name. The short pure files fill the gaps last.
 */
const LONGEST_FIRST = ['.process.test.js', '.browser.test.js', '.http.test.js'];
const tierRank = (file) => {
  const rank = LONGEST_FIRST.findIndex((suffix) => file.endsWith(suffix));
  return rank === -1 ? LONGEST_FIRST.length : rank;
};
const longestFirst = (a, b) => tierRank(a) - tierRank(b) || a.localeCompare(b);

export default async ({ projectDir }) => {
  await compiledTests(projectDir);
  return {
    files: [join(COMPILED_TESTS_DIR, 'test', '**', '*.test.js')],
    // No tsx; ava adds --enable-source-maps, so stack traces and failure excerpts name the TypeScript source.
    nodeArguments: [],
    workerThreads: false,
    timeout: '120s',
    // Three files at once on two cores: the process and browser files spend most of their time waiting
    // on real timers and other processes (two workers kept the cores 102–108 % busy, not 200 %).
    concurrency: 3,
    sortTestFiles: longestFirst,
    // The processes the tests start run compiled as well (support/node-entry.ts).
    environmentVariables: { WW_COMPILED_TREE: join(projectDir, COMPILED_TESTS_DIR) },
  };
};
