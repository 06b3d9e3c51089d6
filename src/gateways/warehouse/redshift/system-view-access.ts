import type { RedshiftTarget } from '../environments.js';
import { isSystemViewPermissionDenied } from '../errors.js';
import type { Clock, SystemViewAccess } from '../port.js';
import type { ResultRow } from './result-rows.js';
import type { SqlStatement } from './statement-runner.js';
import { grantsFor, SUPERUSER_ONLY_VIEWS_READ, viewProbeStatement } from './system-view-grants.js';

/**
 * Which superuser-only views the monitoring user may not read, asked one view at a time (a
 * refused statement names only the first view it was refused), for /health. Remembered per
 * environment for ACCESS_TTL_MS: each check is several billed statements, and grants change rarely.
 */

/** A grant an administrator adds shows in /health within ten minutes. */
export const ACCESS_TTL_MS = 600_000;

interface Deps {
  targetOf: (envId: string) => RedshiftTarget;
  run: (envId: string, target: RedshiftTarget, statement: SqlStatement) => Promise<ResultRow[]>;
  now: Clock;
}

export function systemViewAccessCheck({ targetOf, run, now }: Deps) {
  const known = new Map<string, { access: Promise<SystemViewAccess>; until: number }>();

  const check = async (envId: string): Promise<SystemViewAccess> => {
    const target = targetOf(envId);
    const outcomes = await Promise.all(
      SUPERUSER_ONLY_VIEWS_READ[target.kind].map(async (view) => {
        try {
          await run(envId, target, viewProbeStatement(view));
          return { view, outcome: 'readable' as const };
        } catch (error) {
          return { view, outcome: isSystemViewPermissionDenied(error) ? ('denied' as const) : ('unchecked' as const) };
        }
      }),
    );
    const denied = outcomes.filter((o) => o.outcome === 'denied').map((o) => o.view);
    return {
      denied,
      grants: denied.length > 0 ? grantsFor(target, denied) : [],
      unchecked: outcomes.filter((o) => o.outcome === 'unchecked').map((o) => o.view),
    };
  };

  return (envId: string): Promise<SystemViewAccess> => {
    const at = now().getTime();
    const cached = known.get(envId);
    if (cached && cached.until > at) return cached.access;
    const access = check(envId);
    known.set(envId, { access, until: at + ACCESS_TTL_MS });
    // A check that could not run, wholly or for some view, is not remembered: asked again next time.
    access.then(
      (answer) => answer.unchecked.length > 0 && known.delete(envId),
      () => known.delete(envId),
    );
    return access;
  };
}
