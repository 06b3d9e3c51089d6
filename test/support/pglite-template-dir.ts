/**
 * Where the tests keep a fresh embedded PostgreSQL cluster (src/syncstore/pglite-template.ts): every
 * test database after the machine's first loads it instead of running initdb (about 4 s of CPU each
 * in a new process). Shared by every test process, as the template is written atomically.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PGLITE_TEMPLATE_DIR = join(tmpdir(), 'ww-test-pglite-template');
