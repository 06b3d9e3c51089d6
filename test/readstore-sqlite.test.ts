import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { readStoreContract } from './support/readstore-contract.js';

readStoreContract('sqlite', {
  open: async () => openSqliteReadStore(join(mkdtempSync(join(tmpdir(), 'rs-')), 'read.db')),
});
