/**
 * `npm start`: runs the platform (src/main.ts) from its compiled JavaScript, built first when the
 * sources changed (compiled-build.mjs; about half a second). Tests and `npm run rebuild` keep
 * running the TypeScript through tsx. BUILD_CACHE_DIR moves the builds, e.g. off a read-only
 * node_modules.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compiledTree } from './compiled-build.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const { dir } = await compiledTree(root, process.env.BUILD_CACHE_DIR || undefined);
await import(pathToFileURL(join(dir, 'src', 'main.js')).href);
