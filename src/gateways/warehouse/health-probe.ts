/**
 * The warehouse's part of /health: every environment the environments file configures is asked
 * one real question (its cluster and storage) in parallel, and any that cannot answer makes the
 * check fail, naming the environment and the reason. The answer is remembered for `ttlMs`
 * (default 30 s): load balancers call /health every few seconds, and each Data API statement is
 * billed and takes a second or more. With the simulated default there is nothing to ask: the
 * check says `not_checked`, or `paused` (naming the environments) while the simulator pauses some.
 *
 * A superuser-only system view the monitoring user may not read is named per environment
 * (`permission_denied`, with the `grants` that fix it) but does not fail the check: the warehouse
 * answers, and taking this instance out of rotation would not add the missing grant.
 */
import { isSystemViewPermissionDenied } from './errors.js';
import type { EnvironmentResolver } from './environments.js';
import type { WarehouseGateway } from './port.js';

export interface EnvironmentProbe {
  status: 'ok' | 'unavailable';
  reason?: string;
  /** Superuser-only views the monitoring user may not read (only when there are some). */
  permission_denied?: string[];
  grants?: string[];
}

export interface WarehouseProbeResult {
  /** Absent: `up` (every configured environment answered). */
  status?: 'not_checked' | 'paused';
  paused_environments?: string[];
  mode: 'simulated' | 'redshift';
  environments: Record<string, EnvironmentProbe>;
  checked_at: string;
}

/** The refused views of both answers, once each, with the grants of the fullest answer. */
function refusals(clusterError: unknown, access: { denied: readonly string[]; grants: readonly string[] } | undefined) {
  const fromCluster = isSystemViewPermissionDenied(clusterError) ? clusterError : undefined;
  const views = [...new Set([...(fromCluster?.views ?? []), ...(access?.denied ?? [])])];
  if (views.length === 0) return {};
  const grants = (access?.denied.length ?? 0) >= views.length ? access!.grants : fromCluster!.grants;
  return { permission_denied: views, grants: [...grants] };
}

export class WarehouseDownError extends Error {
  override readonly name = 'WarehouseDownError';
}

export function warehouseHealthProbe(deps: {
  gateway: WarehouseGateway;
  environments: EnvironmentResolver;
  now: () => Date;
  ttlMs?: number;
  /** The simulator's paused environments (simulated mode). */
  pausedEnvironments?: () => string[];
}): () => Promise<WarehouseProbeResult> {
  const ttlMs = deps.ttlMs ?? 30_000;
  let remembered: { at: number; result: Promise<WarehouseProbeResult> } | undefined;

  const probe = async (): Promise<WarehouseProbeResult> => {
    const envIds = deps.environments.configured();
    const answers = await Promise.all(
      envIds.map(async (envId) => {
        const [cluster, access] = await Promise.allSettled([
          deps.gateway.cluster(envId),
          deps.gateway.systemViewAccess ? deps.gateway.systemViewAccess(envId) : Promise.resolve(undefined),
        ]);
        const clusterError = cluster.status === 'rejected' ? cluster.reason : undefined;
        const refused = refusals(clusterError, access.status === 'fulfilled' ? access.value : undefined);
        const answer: EnvironmentProbe =
          clusterError === undefined || isSystemViewPermissionDenied(clusterError)
            ? { status: 'ok', ...refused }
            : { status: 'unavailable', reason: (clusterError as Error).message, ...refused };
        return [envId, answer] as const;
      }),
    );
    return {
      mode: deps.environments.mode === 'file' ? 'redshift' : 'simulated',
      environments: Object.fromEntries(answers),
      checked_at: deps.now().toISOString(),
    };
  };

  return async () => {
    const at = deps.now().getTime();
    if (!remembered || at - remembered.at >= ttlMs) remembered = { at, result: probe() };
    const result = await remembered.result;
    const down = Object.entries(result.environments).filter(([, answer]) => answer.status === 'unavailable');
    if (down.length > 0)
      throw new WarehouseDownError(
        `unavailable: ${down.map(([envId, answer]) => `${envId} (${answer.reason})`).join('; ')}`,
      );
    if (result.mode === 'redshift') return result;
    const paused = deps.pausedEnvironments?.() ?? [];
    return paused.length > 0
      ? { status: 'paused', paused_environments: paused, ...result }
      : { status: 'not_checked', ...result };
  };
}
