import type { RedshiftTarget } from '../environments.js';

/**
 * The system views this adapter reads that Redshift shows to superusers only. Each view's page
 * says so in the same words, e.g. "STV_NODE_STORAGE_CAPACITY is visible only to superusers"
 * (https://docs.aws.amazon.com/redshift/latest/dg/r_STV_NODE_STORAGE_CAPACITY.html, likewise
 * r_SVV_TABLE_INFO, r_STL_COMMIT_STATS, r_SVL_USER_INFO, r_STV_WLM_SERVICE_CLASS_CONFIG,
 * r_SVCS_CONCURRENCY_SCALING_USAGE, SYS_SERVERLESS_USAGE, SYS_TRANSACTION_HISTORY). A regular
 * user's statement that reads one fails with `ERROR: permission denied for relation <view>`
 * (SQLSTATE 42501).
 *
 * What lifts it, as we read the documentation: `GRANT SELECT ON <view> TO <user>` for that view
 * (SVV_TABLE_INFO's page: "To permit a user to query the view, grant SELECT permission on
 * SVV_TABLE_INFO to the user", https://docs.aws.amazon.com/redshift/latest/dg/r_SVV_TABLE_INFO.html),
 * or a system role that "has the permission to access catalog or system tables" (sys:monitor;
 * sys:operator and sys:dba include it: https://docs.aws.amazon.com/redshift/latest/dg/r_roles-default.html).
 */
export const SUPERUSER_ONLY_VIEWS = [
  'stv_node_storage_capacity',
  'svv_table_info',
  'stl_commit_stats',
  'svl_user_info',
  'stv_wlm_service_class_config',
  'svcs_concurrency_scaling_usage',
  'sys_serverless_usage',
  'sys_transaction_history',
] as const;

export type SuperuserOnlyView = (typeof SUPERUSER_ONLY_VIEWS)[number];

const DENIED = /permission denied for (?:relation|table|view) "?([A-Za-z_][\w.]*)"?/i;

/**
 * The superuser-only view a warehouse error refuses, if that is what it says. Only a name from
 * our own list is returned: the driver's text picks the view but is never copied to a caller.
 */
export function deniedViewIn(detail: string): SuperuserOnlyView | undefined {
  const relation = DENIED.exec(detail)?.[1]
    ?.toLowerCase()
    .replace(/^pg_catalog\./, '');
  return SUPERUSER_ONLY_VIEWS.find((view) => view === relation);
}

/** True when the text is a permission refusal at all (of our views or of another relation). */
export const isPermissionDenied = (detail: string): boolean => DENIED.test(detail);

/** The database user the statements run as, as SQL names it; unknown behind a secret. */
function grantee(target: RedshiftTarget): string {
  const user = target.kind === 'provisioned' ? target.db_user : undefined;
  if (user === undefined) return '<the user of the secret>';
  return /^[a-z_][a-z0-9_$]*$/.test(user) ? user : `"${user.replace(/"/g, '""')}"`;
}

/** What an administrator runs: a SELECT grant per refused view, or the one role that covers them all. */
export function grantsFor(target: RedshiftTarget, views: readonly string[]): string[] {
  const user = grantee(target);
  return [...views.map((view) => `GRANT SELECT ON ${view} TO ${user};`), `GRANT ROLE sys:monitor TO ${user};`];
}

/**
 * The superuser-only views each kind's statements read (svv_table_info on both). svl_user_info is
 * no longer read (the visibility check asks svv_user_info) but stays named if a refusal says so.
 */
export const SUPERUSER_ONLY_VIEWS_READ: Record<RedshiftTarget['kind'], readonly SuperuserOnlyView[]> = {
  provisioned: [
    'stv_node_storage_capacity',
    'svv_table_info',
    'stl_commit_stats',
    'stv_wlm_service_class_config',
    'svcs_concurrency_scaling_usage',
  ],
  serverless: ['svv_table_info', 'sys_serverless_usage', 'sys_transaction_history'],
};

/** One cheap statement per view: the permission check happens before any row is read. */
export function viewProbeStatement(view: SuperuserOnlyView) {
  return { name: `warehouse-watch:can-read:${view}`, sql: `SELECT 1 AS readable FROM ${view} LIMIT 1`, parameters: {} };
}
