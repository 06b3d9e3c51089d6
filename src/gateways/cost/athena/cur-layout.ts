import { isoDay } from '../port.js';

/**
 * What differs between the two Cost and Usage Report tables an Athena adapter can meet: where
 * the environment's cost allocation tag lives, and how the table is partitioned. Everything
 * else the cost questions read (line_item_* columns) has the same name and type in both.
 *
 * - CUR 1 ("legacy CUR", Athena integration): one column per activated tag, e.g.
 *   `resource_tags_user_environment_id`; the integration's table is partitioned by the strings
 *   `year` and `month` (S3 paths `year=2026/month=9/`, the month not zero-padded).
 *   https://docs.aws.amazon.com/cur/latest/userguide/cur-query-athena.html
 * - CUR 2.0 (AWS Data Exports): "resource_tags — A map column containing key-value pairs of
 *   resource tags … map <string, string>"; the old columns are its keys without the
 *   `resource_tags_` prefix (`resource_tags.user_creator` for `resource_tags_user_creator`).
 *   Data is delivered per "billing period in the format BILLING_PERIOD=YYYY-MM", which the
 *   Athena/Glue table exposes as the partition column `billing_period`.
 *   https://docs.aws.amazon.com/cur/latest/userguide/table-dictionary-cur2-resource-tags.html
 *   https://docs.aws.amazon.com/cur/latest/userguide/dataexports-export-delivery.html
 *   https://docs.aws.amazon.com/cur/latest/userguide/dataexports-migrate.html
 */

export type CurVersion = 1 | 2;

export interface CurLayout {
  version: CurVersion;
  /** The CUR 1 column of the environment tag (a plain identifier). */
  environmentColumn: string;
  /** The CUR 2.0 `resource_tags` key of the environment tag. */
  environmentTag: string;
  /** False only when detection found the table without its partition columns (hand-made tables). */
  partitioned: boolean;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/**
 * An AWS tag key: "Pattern: [\p{L}\p{Z}\p{N}_.:/=+\-@]+ Minimum: 1 Maximum: 128" (AWS::IAM::User Tag,
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-iam-user-tag.html).
 * No quote can pass it; the key is still written through `stringLiteral`.
 */
const TAG_KEY = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]{1,128}$/u;

export function checkIdentifier(name: string, what: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`${what} must be a plain SQL identifier, got ${JSON.stringify(name)}`);
  return name;
}

export function checkTagKey(key: string): string {
  if (!TAG_KEY.test(key))
    throw new Error(
      `the environment tag key must be an AWS tag key (letters, digits, spaces, _ . : / = + - @; 1 to 128), got ${JSON.stringify(key)}`,
    );
  return key;
}

/** A varchar literal: single quotes doubled, so no value can end the string early. */
export const stringLiteral = (value: string): string => `'${value.replaceAll("'", "''")}'`;

const TAG_PREFIX = 'resource_tags_';
const DEFAULT_COLUMN = 'resource_tags_user_environment_id';

/**
 * One setting serves both versions: a CUR 1 column names its CUR 2.0 key (prefix dropped), and
 * a key names its CUR 1 column (prefix added). Both are checked when the store is built.
 */
export function environmentTagging(settings: { environmentColumn?: string; environmentTag?: string }): {
  environmentColumn: string;
  environmentTag: string;
} {
  const column =
    settings.environmentColumn ??
    (settings.environmentTag ? `${TAG_PREFIX}${settings.environmentTag}` : DEFAULT_COLUMN);
  const tag = settings.environmentTag ?? (column.startsWith(TAG_PREFIX) ? column.slice(TAG_PREFIX.length) : column);
  return { environmentColumn: column, environmentTag: checkTagKey(tag) };
}

/**
 * The SQL expression that reads the environment tag of a line item. On CUR 2.0, `element_at`
 * rather than `resource_tags['…']`: a key appears in the map only on line items that carry the
 * tag, and Athena's subscript fails the whole query on a missing key where element_at is NULL.
 */
export function environmentExpression(layout: CurLayout): string {
  if (layout.version === 2) return `element_at(resource_tags, ${stringLiteral(checkTagKey(layout.environmentTag))})`;
  return `"${checkIdentifier(layout.environmentColumn, 'the environment column')}"`;
}

/** Every billing month (YYYY-MM) a day range touches, oldest first. */
export function billingMonths(from: string, to: string): string[] {
  const last = isoDay.parse(to).slice(0, 7);
  let [year, month] = isoDay.parse(from).split('-').map(Number) as [number, number];
  const months: string[] = [];
  for (let current = from.slice(0, 7); current <= last; current = `${year}-${String(month).padStart(2, '0')}`) {
    months.push(current);
    [year, month] = month === 12 ? [year + 1, 1] : [year, month + 1];
  }
  return months;
}

/**
 * The partition predicate of a day range, so Athena reads only the months asked about (a CUR
 * table holds every month since it was set up; a question without it scans all of them). The
 * values come from validated dates: digits and dashes only. CUR 1 month values are written both
 * unpadded (what the integration's S3 paths hold) and zero-padded (tables partitioned by hand).
 */
export function partitionPredicate(layout: CurLayout, range: { from: string; to: string }): string | undefined {
  if (!layout.partitioned) return undefined;
  const months = billingMonths(range.from, range.to);
  if (layout.version === 2) return `billing_period IN (${months.map(stringLiteral).join(', ')})`;
  const pairs = months.map((month) => {
    const [year, number] = month.split('-') as [string, string];
    const values = [...new Set([String(Number(number)), number])];
    return `(year = ${stringLiteral(year)} AND month IN (${values.map(stringLiteral).join(', ')}))`;
  });
  return `(${pairs.join(' OR ')})`;
}
