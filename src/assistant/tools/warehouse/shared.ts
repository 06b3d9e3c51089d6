/**
 * Pieces every warehouse tool shares: bounded look-backs and limits, identifier-shaped names, the
 * optional cluster filter, and the cap on query text sent to the model.
 */
import { z } from 'zod';
import { MAX_LOOKBACK_HOURS } from '../../../gateways/warehouse/diagnostics.js';

/** Characters of query text per query in a listing; a longer text is cut and flagged. */
export const QUERY_TEXT_CAP = 500;
/** Characters of query text in query_details, where the text is the point. */
export const DETAIL_QUERY_TEXT_CAP = 4000;

export const DEFAULT_LOOKBACK_HOURS = 24;

export const lookbackHours = z
  .number()
  .int()
  .min(1)
  .max(MAX_LOOKBACK_HOURS)
  .default(DEFAULT_LOOKBACK_HOURS)
  .describe(`hours to look back, 1-${MAX_LOOKBACK_HOURS} (the warehouse keeps about a week of history)`);

export const limit = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback).describe(`rows to return, 1-${max}`);

/** A Redshift name as written unquoted: letters, digits, _ and $, not starting with a digit. */
export const identifier = (what: string) =>
  z
    .string()
    .regex(
      /^[A-Za-z_][A-Za-z0-9_$]{0,126}$/,
      `${what} must be a plain identifier (letters, digits, _ or $, not starting with a digit)`,
    )
    .describe(`${what} (an unquoted identifier)`);

/** Database user names may carry IAM prefixes ("IAM:alice", "IAMR:role"); they only filter answers, never reach SQL. */
export const userName = z
  .string()
  .regex(/^[A-Za-z0-9_.@:$+-]{1,128}$/, 'a database user name: letters, digits and _ . @ : $ + -')
  .describe('only this database user');

export const clusterId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,62}$/, 'a cluster or workgroup id: letters, digits and -')
  .describe('only this cluster (or workgroup) of the environment; omit for all');

/** Keeps only the rows of one cluster when asked to; every row here carries its cluster_id. */
export const ofCluster = <T extends { cluster_id: string }>(rows: readonly T[], wanted: string | undefined): T[] =>
  wanted === undefined ? [...rows] : rows.filter((row) => row.cluster_id === wanted);

export interface CappedText {
  query_text: string;
  query_text_truncated: boolean;
}

export function capQueryText(text: string, cap = QUERY_TEXT_CAP): CappedText {
  return text.length <= cap
    ? { query_text: text, query_text_truncated: false }
    : { query_text: `${text.slice(0, cap)}…`, query_text_truncated: true };
}

export const cappedTextShape = {
  query_text: z.string(),
  query_text_truncated: z.boolean().describe('the text was cut to the cap'),
};

export const isoTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/);

export const round = (value: number, decimals = 2) => Math.round(value * 10 ** decimals) / 10 ** decimals;
