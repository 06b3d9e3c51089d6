/**
 * Composition of the warehouse side: Redshift (WAREHOUSE_ENVIRONMENTS set) or the simulated
 * warehouse (the embedded default), the metric registry over it, and their routes.
 */
import { simulatorRoutes } from '../../queries/simulator.js';
import { warehouseRoutes } from '../../queries/warehouse.js';
import type { Config } from '../config.js';
import { environmentResolverFor } from '../gateways/warehouse/environments.js';
import { createMetricRegistry, type MetricRegistry } from '../gateways/warehouse/metrics/registry.js';
import type { WarehouseGateway } from '../gateways/warehouse/port.js';
import { createRedshiftGateway } from '../gateways/warehouse/redshift/redshift-gateway.js';
import { createSimulatedWarehouse } from '../gateways/warehouse/simulated/simulated-gateway.js';
import type { ApiModule } from '../http/app.js';

export interface WarehouseComposition {
  mode: 'simulated' | 'redshift';
  gateway: WarehouseGateway;
  metrics: MetricRegistry;
  modules: ApiModule[];
}

export async function composeWarehouse(config: Config, now: () => Date): Promise<WarehouseComposition> {
  const environments = await environmentResolverFor(config.warehouseEnvironmentsFile);
  let metrics: MetricRegistry | undefined;
  const simulated = environments.mode === 'simulated' ? createSimulatedWarehouse({ now, knownMetrics: () => metrics?.ids() ?? [] }) : undefined;
  const gateway = simulated?.gateway ?? createRedshiftGateway({ environments, now });
  metrics = createMetricRegistry({ gateway, overrides: simulated?.control });
  const registry = metrics;
  const modules: ApiModule[] = [{ alias: true, routes: () => warehouseRoutes({ gateway, environments, now }) }];
  // The simulator's steering endpoints exist only while the simulated warehouse is active.
  if (simulated) modules.push({ alias: false, routes: () => simulatorRoutes({ control: simulated.control, metrics: registry }) });
  return { mode: simulated ? 'simulated' : 'redshift', gateway, metrics: registry, modules };
}
