import { z } from 'zod';
import type { WarehouseGateway } from '../../../gateways/warehouse/port.js';
import { defineTool } from '../../tool.js';
import { clusterId, identifier, limit, ofCluster } from './shared.js';

/**
 * The catalogue: schemas, tables and columns the environment's warehouse questions cover (on
 * Redshift, the environment's configured schema; see diagnostics.ts). Names are validated as
 * plain identifiers and travel as bound parameters.
 */

export function listSchemasTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'list_schemas',
    family: 'warehouse',
    description:
      "The schemas of the environment's warehouse, with owner, number of tables and size. Use it to find the schema names the table tools take.",
    input: z.object({ cluster_id: clusterId.optional() }).strict(),
    output: z.object({
      schemas: z.array(
        z.object({
          cluster_id: z.string(),
          schema: z.string(),
          owner: z.string(),
          table_count: z.number().int().min(0),
          size_mb: z.number().min(0),
        }),
      ),
    }),
    example: {},
    async run(input, { envId }) {
      return { schemas: ofCluster(await warehouse.schemas(envId), input.cluster_id) };
    },
  });
}

export function listTablesTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'list_tables',
    family: 'warehouse',
    description:
      'The tables (and views) of one schema, by name: type, size (MB), rows, distribution style and first sort key. name_contains narrows by part of the name. An empty list: no such schema in this environment (see list_schemas).',
    input: z
      .object({
        schema: identifier('schema'),
        name_contains: z
          .string()
          .regex(/^[A-Za-z0-9_$]{1,127}$/, 'letters, digits, _ or $')
          .optional()
          .describe('only tables whose name contains this'),
        cluster_id: clusterId.optional(),
        limit: limit(500, 100),
      })
      .strict(),
    output: z.object({
      schema: z.string(),
      total: z.number().int().min(0),
      tables: z.array(
        z.object({
          cluster_id: z.string(),
          table_name: z.string(),
          table_type: z.string(),
          size_mb: z.number().min(0),
          tbl_rows: z.number().min(0),
          dist_style: z.string(),
          sortkey1: z.string(),
        }),
      ),
    }),
    example: { schema: 'analytics' },
    async run(input, { envId }) {
      const tables = ofCluster(await warehouse.tables(envId, input.schema), input.cluster_id).filter(
        (table) =>
          input.name_contains === undefined ||
          table.table_name.toLowerCase().includes(input.name_contains.toLowerCase()),
      );
      return {
        schema: input.schema.toLowerCase(),
        total: tables.length,
        tables: tables.slice(0, input.limit).map(({ schema: _schema, ...table }) => table),
      };
    },
  });
}

export function listColumnsTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'list_columns',
    family: 'warehouse',
    description:
      'The columns of one table in table order: data type, nullability, compression encoding, and whether the column is the distribution key or part of the sort key (its position). found=false when the table does not exist in this environment.',
    input: z
      .object({ schema: identifier('schema'), table_name: identifier('table name'), cluster_id: clusterId.optional() })
      .strict(),
    output: z.object({
      schema: z.string(),
      table_name: z.string(),
      found: z.boolean(),
      distkey: z.string().nullable().describe('the distribution key column, if any'),
      sortkey: z.array(z.string()).describe('the sort key columns in order'),
      columns: z.array(
        z.object({
          cluster_id: z.string(),
          position: z.number().int().min(1),
          column_name: z.string(),
          data_type: z.string(),
          nullable: z.boolean(),
          encoding: z.string(),
          distkey: z.boolean(),
          sortkey: z.number().int(),
        }),
      ),
    }),
    example: { schema: 'analytics', table_name: 'fact_orders' },
    async run(input, { envId }) {
      const columns = ofCluster(await warehouse.columns(envId, input.schema, input.table_name), input.cluster_id);
      return {
        schema: input.schema.toLowerCase(),
        table_name: input.table_name.toLowerCase(),
        found: columns.length > 0,
        distkey: columns.find((column) => column.distkey)?.column_name ?? null,
        sortkey: columns
          .filter((column) => column.sortkey !== 0)
          .sort((a, b) => Math.abs(a.sortkey) - Math.abs(b.sortkey))
          .map((column) => column.column_name)
          .filter((name, index, names) => names.indexOf(name) === index),
        columns,
      };
    },
  });
}
