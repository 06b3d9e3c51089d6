import type { Clock, QueryVisibility, WarehouseKind } from '../port.js';
import { integerOf, textOf, type ResultRow } from './result-rows.js';
import type { SqlStatement } from './statement-runner.js';
import { sql } from './sql/warehouse-sql.js';

/**
 * Can the monitoring user see every user's queries? A regular Redshift user sees only its own
 * rows in the STL/STV/SVL views (provisioned) and the SYS views (both kinds) unless it is a
 * superuser, has SYSLOG ACCESS UNRESTRICTED, or holds a system role that grants access to the
 * system tables (sys:monitor, sys:operator, sys:superuser). The statement reads the user's own
 * row of the user catalogue, which every user may read.
 *
 * Which role grants exactly which visibility on which kind is taken from the Redshift
 * documentation as we read it; the README asks operators to verify it against their cluster.
 */

/** Roles whose ACCESS SYSTEM TABLE privilege lifts the own-rows-only restriction. */
const SYSTEM_ROLES = sql`('sys:monitor', 'sys:operator', 'sys:superuser')`;

const ROLE_COUNT = sql`(SELECT COUNT(*) FROM svv_user_grants g WHERE g.user_name = current_user AND g.role_name IN ${SYSTEM_ROLES})`;

export function queryVisibilityStatement(kind: WarehouseKind): SqlStatement {
  return {
    name: 'warehouse-watch:query-visibility',
    // svl_user_info (provisioned only) carries the syslog access setting; serverless has no SVL
    // views, and there only superusers and the system roles see every query.
    sql:
      kind === 'provisioned'
        ? sql`
          SELECT CASE WHEN u.usesuper THEN 1 ELSE 0 END AS is_superuser,
                 TRIM(COALESCE(u.syslogaccess, 'RESTRICTED')) AS syslog_access,
                 ${ROLE_COUNT} AS system_roles
          FROM svl_user_info u
          WHERE u.usename = current_user`
        : sql`
          SELECT CASE WHEN u.usesuper THEN 1 ELSE 0 END AS is_superuser,
                 'RESTRICTED' AS syslog_access,
                 ${ROLE_COUNT} AS system_roles
          FROM pg_user u
          WHERE u.usename = current_user`,
    parameters: {},
  };
}

/** No row (the user is not in the catalogue view) counts as restricted: we cannot show otherwise. */
export function visibilityFrom(rows: readonly ResultRow[]): QueryVisibility {
  const [row] = rows;
  if (!row) return 'own_queries_only';
  const unrestricted =
    integerOf(row, 'is_superuser') > 0 || textOf(row, 'syslog_access').toUpperCase() === 'UNRESTRICTED' || integerOf(row, 'system_roles') > 0;
  return unrestricted ? 'all_queries' : 'own_queries_only';
}

/** How long a known answer is kept: grants change rarely, and a fixed grant shows within the hour. */
export const VISIBILITY_TTL_MS = 3_600_000;

/**
 * Remembers each environment's answer for VISIBILITY_TTL_MS; concurrent requests share one check.
 * A failed check is not remembered: the caller gets `unknown` and the next request asks again.
 */
export function visibilityCache(now: Clock) {
  const known = new Map<string, { visibility: QueryVisibility; until: number }>();
  const pending = new Map<string, Promise<QueryVisibility>>();
  return async (envId: string, check: () => Promise<QueryVisibility>): Promise<QueryVisibility> => {
    const cached = known.get(envId);
    if (cached && cached.until > now().getTime()) return cached.visibility;
    let inFlight = pending.get(envId);
    if (!inFlight) {
      inFlight = check()
        .then((visibility) => {
          known.set(envId, { visibility, until: now().getTime() + VISIBILITY_TTL_MS });
          return visibility;
        })
        .catch((): QueryVisibility => 'unknown')
        .finally(() => pending.delete(envId));
      pending.set(envId, inFlight);
    }
    return inFlight;
  };
}
