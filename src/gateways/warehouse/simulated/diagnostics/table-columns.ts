import { randomFrom, seedOf } from '../prng.js';
import type { SimulatedTable } from '../table-catalogue.js';

/**
 * The columns of a simulated table: its join key first, its event-time column next, then columns
 * drawn (seeded by the table) from a pool that fits its kind, up to the table's column count.
 * Facts always carry the dimension keys and `amount`, because the workload's query texts join and
 * sum on them. Distribution and sort keys follow the table's own traits.
 */

export interface SimulatedColumn {
  position: number;
  name: string;
  dataType: string;
  nullable: boolean;
  encoding: string;
  distkey: boolean;
  sortkey: number;
}

type Pool = readonly (readonly [string, string])[];

const DIMENSION_KEYS: Pool = [
  ['customer_id', 'bigint'],
  ['product_id', 'bigint'],
  ['store_id', 'integer'],
  ['date_key', 'integer'],
  ['campaign_id', 'integer'],
];

const MEASURES: Pool = [
  ['amount', 'numeric(18,2)'],
  ['quantity', 'integer'],
  ['unit_price', 'numeric(18,4)'],
  ['discount_amount', 'numeric(18,2)'],
  ['tax_amount', 'numeric(18,2)'],
  ['shipping_cost', 'numeric(18,2)'],
  ['margin', 'numeric(18,4)'],
  ['duration_seconds', 'integer'],
];

const ATTRIBUTES: Pool = [
  ['status', 'character varying(32)'],
  ['channel', 'character varying(32)'],
  ['currency', 'character(3)'],
  ['country_code', 'character(2)'],
  ['region', 'character varying(64)'],
  ['device_type', 'character varying(32)'],
  ['payment_method', 'character varying(32)'],
  ['source_system', 'character varying(32)'],
  ['carrier', 'character varying(64)'],
  ['page_url', 'character varying(2048)'],
  ['referrer', 'character varying(2048)'],
  ['user_agent', 'character varying(1024)'],
  ['is_test', 'boolean'],
  ['batch_id', 'bigint'],
  ['warehouse_id', 'integer'],
  ['created_at', 'timestamp without time zone'],
  ['updated_at', 'timestamp without time zone'],
  ['name', 'character varying(256)'],
  ['email', 'character varying(256)'],
  ['segment', 'character varying(64)'],
  ['city', 'character varying(128)'],
  ['category', 'character varying(128)'],
  ['brand', 'character varying(128)'],
  ['postal_code', 'character varying(16)'],
  ['tier', 'character varying(16)'],
  ['payload', 'super'],
  ['event_type', 'character varying(64)'],
  ['raw_line', 'character varying(65535)'],
];

const encodingFor = (dataType: string) =>
  dataType.startsWith('character')
    ? dataType.includes('65535') || dataType.includes('2048')
      ? 'zstd'
      : 'lzo'
    : dataType === 'boolean' || dataType === 'super'
      ? 'raw'
      : 'az64';

function timeType(column: string): string {
  return /_date$|^month$/.test(column) ? 'date' : 'timestamp without time zone';
}

const memo = new Map<string, SimulatedColumn[]>();

export function columnsOf(table: SimulatedTable): SimulatedColumn[] {
  const memoKey = `${table.clusterId}\u0000${table.schema}\u0000${table.name}`;
  const known = memo.get(memoKey);
  if (known) return known;
  const random = randomFrom(seedOf(table.clusterId, 'columns', table.schema, table.name));
  const chosen: [string, string][] = [
    [table.key, table.key === 'date_key' || table.key.endsWith('store_id') ? 'integer' : 'bigint'],
  ];
  const add = (name: string, dataType: string) => {
    if (chosen.length < table.columns && !chosen.some(([existing]) => existing === name)) chosen.push([name, dataType]);
  };
  if (table.timeColumn) add(table.timeColumn, timeType(table.timeColumn));
  if (table.kind === 'fact' || table.kind === 'stage') {
    for (const [name, dataType] of DIMENSION_KEYS) add(name, dataType);
    add('amount', 'numeric(18,2)');
  }
  const pool = [...(table.kind === 'dim' ? [] : MEASURES), ...ATTRIBUTES];
  // Fisher-Yates with the table's own generator: the same table always gets the same columns.
  for (let i = pool.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  for (const [name, dataType] of pool) add(name, dataType);
  for (let n = 1; chosen.length < table.columns; n++) add(`attribute_${n}`, 'character varying(256)');

  const distColumn = /^KEY\((\w+)\)$/.exec(table.distStyle)?.[1];
  const columns = chosen.map(([name, dataType], index) => ({
    position: index + 1,
    name,
    dataType,
    nullable: index > 0,
    // The leading sort key column is left raw, as Redshift advises, so zone maps stay exact.
    encoding: name === table.sortkey1 ? 'raw' : encodingFor(dataType),
    distkey: name === distColumn,
    sortkey: name === table.sortkey1 ? 1 : 0,
  }));
  if (memo.size > 10_000) memo.clear();
  memo.set(memoKey, columns);
  return columns;
}
