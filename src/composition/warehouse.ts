/**
 * Composition of the warehouse side: Redshift (WAREHOUSE_ENVIRONMENTS set) or the simulated
 * warehouse (the embedded default), the metric registry over it, and their routes.
 */
import { warehouseRoutes } from '../../queries/warehouse.js';
import type { Config } from '../config.js';
import { clusterIdOf, environmentResolverFor, type EnvironmentResolver } from '../gateways/warehouse/environments.js';
import { createMetricRegistry, type MetricRegistry } from '../gateways/warehouse/metrics/registry.js';
import { warehouseHealthProbe, type WarehouseProbeResult } from '../gateways/warehouse/health-probe.js';
import type { WarehouseGateway } from '../gateways/warehouse/port.js';
import { simulatorRoutes } from '../gateways/warehouse/simulated/control-routes.js';
import { simulatedClusters } from '../gateways/warehouse/simulated/fleet.js';
import { createSimulatedWarehouse } from '../gateways/warehouse/simulated/simulated-gateway.js';
import type { SimulatorStateStore } from '../gateways/warehouse/simulated/simulator-state-store.js';
import { localSteering, sharedSteering } from '../gateways/warehouse/simulated/simulator-steering.js';
import type { Logger } from 'pino';
import type { ApiModule } from '../http/app.js';
import type { PlatformArea } from './area.js';

export interface WarehouseComposition extends PlatformArea {
  mode: 'simulated' | 'redshift';
  gateway: WarehouseGateway;
  metrics: MetricRegistry;
  /** The cluster ids of an environment; null when the environment is not known (its rules fail anyway, visibly). */
  clusterIds: (envId: string) => readonly string[] | null;
  /** For /health: every configured environment answers, or this rejects naming those that do not. */
  check: () => Promise<WarehouseProbeResult>;
}

function clusterIdsFrom(environments: EnvironmentResolver) {
  return (envId: string): readonly string[] | null => {
    if (environments.mode === 'simulated') return simulatedClusters(envId).map((cluster) => cluster.id);
    try {
      const target = environments.resolve(envId);
      return target.kind === 'simulated'
        ? simulatedClusters(envId).map((cluster) => cluster.id)
        : [clusterIdOf(target)];
    } catch {
      return null;
    }
  };
}

export interface WarehouseSharing {
  /** The simulator's pins and pauses shared by every instance (MONGODB_URL set); absent: this process's memory. */
  simulatorState?: SimulatorStateStore;
  logger: Logger;
}

export async function composeWarehouse(
  config: Config,
  now: () => Date,
  sharing: WarehouseSharing,
): Promise<WarehouseComposition> {
  const environments = await environmentResolverFor(config.warehouseEnvironmentsFile);
  let metrics: MetricRegistry | undefined;
  const simulated =
    environments.mode === 'simulated'
      ? createSimulatedWarehouse({ now, knownMetrics: () => metrics?.ids() ?? [] })
      : undefined;
  // The Redshift Data API client is loaded only for a real warehouse.
  const gateway =
    simulated?.gateway ??
    (await import('../gateways/warehouse/redshift/redshift-gateway.js')).createRedshiftGateway({ environments, now });
  metrics = createMetricRegistry({ gateway, overrides: simulated?.control });
  const registry = metrics;
  const routes: ApiModule[] = [{ alias: true, routes: () => warehouseRoutes({ gateway, environments, now }) }];
  const shared =
    simulated && sharing.simulatorState
      ? sharedSteering({
          control: simulated.control,
          store: sharing.simulatorState,
          now,
          onRefreshError: (error) =>
            sharing.logger.warn({ err: error }, 'could not refresh the simulator state from the shared store'),
        })
      : undefined;
  const steering = shared ?? (simulated ? localSteering(simulated.control) : undefined);
  // The simulator's steering endpoints exist only while the simulated warehouse is active.
  if (steering) routes.push({ alias: false, routes: () => simulatorRoutes({ control: steering, metrics: registry }) });
  return {
    mode: simulated ? 'simulated' : 'redshift',
    gateway,
    metrics: registry,
    clusterIds: clusterIdsFrom(environments),
    routes,
    processes: shared ? [shared.process] : [],
    check: warehouseHealthProbe({
      gateway,
      environments,
      now,
      pausedEnvironments: simulated ? () => simulated.control.pausedEnvironments() : undefined,
    }),
  };
}
