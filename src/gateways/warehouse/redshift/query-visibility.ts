import type { Clock, QueryVisibility, WarehouseKind } from '../port.js';
import { integerOf, textOf, type ResultRow } from './result-rows.js';
import type { SqlStatement } from './statement-runner.js';
import { sql } from './sql/warehouse-sql.js';

/**
 * Can the monitoring user see every user's queries? A regular Redshift user sees only its own
 * rows in the STL/STV/SVL views (provisioned) and the SYS views (both kinds) unless it is a
 * superuser, has SYSLOG ACCESS UNRESTRICTED, or holds a system role with the permission to
 * "access catalog or system tables": sys:monitor, sys:operator, sys:dba (which "inherits all the
 * permissions from the sys:operator role") and sys:superuser
 * (https://docs.aws.amazon.com/redshift/latest/dg/r_roles-default.html).
 *
 * The statement reads the user's own row of SVV_USER_INFO: "SVV_USER_INFO is visible to all
 * users. Superusers can see all rows; regular users can see only their own data"
 * (https://docs.aws.amazon.com/redshift/latest/dg/r_SVV_USER_INFO.html). SVL_USER_INFO, which
 * has the same facts, "is visible only to superusers", so a regular user asking it was refused
 * and its visibility read as unknown. A system role may be held directly (svv_user_grants) or
 * through a role it was granted to, as AWS's own example does (`create role monitor; grant role
 * sys:monitor to role monitor;`, svv_role_grants; one level deep).
 *
 * Which role grants exactly which visibility on which kind is taken from the Redshift
 * documentation as we read it; the README asks operators to verify it against their cluster.
 */

/** Roles whose ACCESS SYSTEM TABLE permission lifts the own-rows-only restriction. */
export const SYSTEM_ROLES = ['sys:monitor', 'sys:operator', 'sys:dba', 'sys:superuser'] as const;
const SYSTEM_ROLE_LIST = `(${SYSTEM_ROLES.map((role) => `'${role}'`).join(', ')})`;

const ROLE_COUNT = sql`(SELECT COUNT(*) FROM svv_user_grants g
  LEFT JOIN svv_role_grants r ON r.role_name = g.role_name
  WHERE g.user_name = current_user
    AND (g.role_name IN ${SYSTEM_ROLE_LIST} OR r.granted_role_name IN ${SYSTEM_ROLE_LIST}))`;

export function queryVisibilityStatement(kind: WarehouseKind): SqlStatement {
  return {
    name: 'warehouse-watch:query-visibility',
    // SYSLOG ACCESS is a provisioned-cluster setting; on serverless only superusers and the
    // system roles see every query.
    sql: sql`
      SELECT CASE WHEN u.superuser THEN 1 ELSE 0 END AS is_superuser,
             ${kind === 'provisioned' ? "TRIM(COALESCE(u.syslog_access, 'RESTRICTED'))" : "'RESTRICTED'"} AS syslog_access,
             ${ROLE_COUNT} AS system_roles
      FROM svv_user_info u
      WHERE u.user_name = current_user`,
    parameters: {},
  };
}

/** No row (the user is not in the catalogue view) counts as restricted: we cannot show otherwise. */
export function visibilityFrom(rows: readonly ResultRow[]): QueryVisibility {
  const [row] = rows;
  if (!row) return 'own_queries_only';
  const unrestricted =
    integerOf(row, 'is_superuser') > 0 ||
    textOf(row, 'syslog_access').toUpperCase() === 'UNRESTRICTED' ||
    integerOf(row, 'system_roles') > 0;
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
