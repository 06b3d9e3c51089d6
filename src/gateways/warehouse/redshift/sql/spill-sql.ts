/**
 * Spill on serverless (and the SYS views of provisioned clusters) comes from SYS_QUERY_DETAIL,
 * where "each row represent[s] details about a particular WLM query at a given metric level"
 * (https://docs.aws.amazon.com/redshift/latest/dg/SYS_QUERY_DETAIL.html): the same blocks appear
 * again at the query, segment and step levels, so summing every row counts each spill several
 * times. Every statement sums one level, the step level (the only one that also names the step
 * and its table), through these fragments, so the lists, the metric, the diagnostics and the
 * sync all agree. The columns count 1 MB blocks.
 */

/** The one metrics_level summed everywhere; `alias` is the sys_query_detail alias with its dot. */
export const spillLevel = (alias = '') => `${alias}metrics_level = 'step'`;

/** Blocks spilled to local and remote disk by one sys_query_detail row. */
export const spilledBlocks = (alias = '') =>
  `COALESCE(${alias}spilled_block_local_disk, 0) + COALESCE(${alias}spilled_block_remote_disk, 0)`;

/** (query_id, spilled_blocks) at the one level; `where` narrows it further (e.g. to one query). */
export const spilledBlocksPerQuery = (where = '') =>
  `(SELECT query_id, SUM(${spilledBlocks()}) AS spilled_blocks FROM sys_query_detail WHERE ${where ? `${where} AND ` : ''}${spillLevel()} GROUP BY query_id)`;
