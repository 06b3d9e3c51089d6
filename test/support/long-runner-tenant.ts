/**
 * A fresh tenant whose simulated warehouse has a query running past the slow-query threshold now.
 * The simulated workload has none at about one instant in twenty for a given environment (a quiet
 * moment between its loads), so a test that needs one takes the first of ten fresh tenants that
 * has one (all ten quiet at once: about 1e-13).
 */
import type { Caller, TestApp } from './test-app.js';

export async function tenantWithLongRunners(app: TestApp): Promise<Caller> {
  for (let tries = 0; tries < 10; tries++) {
    const caller = app.newTenant();
    const answer = await app.request('GET', '/warehouse/queries/slow', { caller });
    if ((answer.body?.queries?.length ?? 0) > 0) return caller;
  }
  throw new Error('ten simulated warehouses had no query past the slow-query threshold');
}
