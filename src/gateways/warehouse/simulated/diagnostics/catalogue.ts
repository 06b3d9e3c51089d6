import type { CatalogColumn, CatalogSchema, CatalogTable } from '../../diagnostics.js';
import type { ClusterSnapshot } from '../cluster-state.js';
import { columnsOf } from './table-columns.js';

/** The simulated catalogue: schemas, tables and columns of each cluster's tables, with their figures now. */

const SCHEMA_OWNERS: Record<string, string> = { analytics: 'dbt_runner', staging: 'etl_airflow', marts: 'dbt_runner' };

const catalogueOf = (snapshot: ClusterSnapshot) =>
  snapshot.tables.map((table, i) => ({ table, figures: snapshot.figures[i]! }));

export function schemasIn(snapshots: readonly ClusterSnapshot[]): CatalogSchema[] {
  return snapshots.flatMap((snapshot) => {
    const bySchema = new Map<string, { count: number; size: number }>();
    for (const { table, figures } of catalogueOf(snapshot)) {
      const entry = bySchema.get(table.schema) ?? { count: 0, size: 0 };
      bySchema.set(table.schema, { count: entry.count + 1, size: entry.size + figures.size_mb });
    }
    return [...bySchema.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([schema, { count, size }]) => ({
        cluster_id: snapshot.cluster.id,
        schema,
        owner: SCHEMA_OWNERS[schema] ?? 'admin',
        table_count: count,
        size_mb: size,
      }));
  });
}

export function tablesIn(snapshots: readonly ClusterSnapshot[], schema: string): CatalogTable[] {
  return snapshots.flatMap((snapshot) =>
    catalogueOf(snapshot)
      .filter(({ table }) => table.schema === schema.toLowerCase())
      .sort((a, b) => a.table.name.localeCompare(b.table.name))
      .map(({ table, figures }) => ({
        cluster_id: table.clusterId,
        schema: table.schema,
        table_name: table.name,
        table_type: 'TABLE',
        size_mb: figures.size_mb,
        tbl_rows: figures.tbl_rows,
        dist_style: table.distStyle,
        sortkey1: table.sortkey1,
      })),
  );
}

export function columnsIn(snapshots: readonly ClusterSnapshot[], schema: string, tableName: string): CatalogColumn[] {
  return snapshots.flatMap((snapshot) =>
    snapshot.tables
      .filter((table) => table.schema === schema.toLowerCase() && table.name === tableName.toLowerCase())
      .flatMap((table) =>
        columnsOf(table).map((c) => ({
          cluster_id: table.clusterId,
          position: c.position,
          column_name: c.name,
          data_type: c.dataType,
          nullable: c.nullable,
          encoding: c.encoding,
          distkey: c.distkey,
          sortkey: c.sortkey,
        })),
      ),
  );
}
