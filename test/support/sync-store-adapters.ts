/**
 * The relational store adapters the contract suite runs against: the embedded PostgreSQL always,
 * a PostgreSQL server when TEST_POSTGRES_URL is set. Each store gets its own schema, dropped on close.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPgConnection } from '../../src/syncstore/pg-connection.js';
import { openPgliteConnection } from '../../src/syncstore/pglite-connection.js';
import type { SqlConnection } from '../../src/syncstore/sql-connection.js';
import { PGLITE_TEMPLATE_DIR } from './pglite-template-dir.js';

export interface AdapterUnderTest {
  name: string;
  /** Whether open(schema) reaches the same database (a server) or a new one (embedded, in memory). */
  sessionsShareDatabase: boolean;
  /** A fresh connection in a fresh schema; `schema` lets a second connection share it. */
  open(schema?: string): Promise<{ connection: SqlConnection; schema: string }>;
  /** Drops what the test created. */
  cleanUp(schema: string): Promise<void>;
}

const freshSchema = () => `contract_${randomBytes(6).toString('hex')}`;

const embedded: AdapterUnderTest = {
  name: 'embedded',
  sessionsShareDatabase: false,
  async open(schema = freshSchema()) {
    return { connection: await openPgliteConnection({ schema, templateDir: PGLITE_TEMPLATE_DIR }), schema };
  },
  async cleanUp() {
    // In memory: gone when closed.
  },
};

function server(url: string): AdapterUnderTest {
  return {
    name: 'postgresql',
    sessionsShareDatabase: true,
    async open(schema = freshSchema()) {
      return { connection: await openPgConnection({ url, schema }), schema };
    },
    async cleanUp(schema) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

export const adaptersUnderTest: AdapterUnderTest[] = [
  embedded,
  ...(process.env.TEST_POSTGRES_URL ? [server(process.env.TEST_POSTGRES_URL)] : []),
];
