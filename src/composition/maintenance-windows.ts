/**
 * Composition of maintenance windows: their command and query routes, the one read per tick the
 * evaluator makes of the windows active now (every tenant's, grouped by tenant), the lookup the
 * escalation manager holds stages by, and the `maintenance_windows_active` gauge (counted from the
 * read model when /metrics is scraped, so every instance reports the same).
 */
import { Gauge, type Registry } from 'prom-client';
import { maintenanceWindowCommandRoutes } from '../../commands/maintenance-window-routes.js';
import { ALERT_RULES, type AlertRuleDoc } from '../../projections/alert-rules.js';
import {
  findMaintenanceWindow,
  liveWindows,
  maintenanceWindowQueryRoutes,
  maintenanceWindowView,
  timedWindowOf,
} from '../../queries/maintenance-windows.js';
import type { CommandDeps } from '../commanding/command-handler.js';
import { isWindowActive } from '../events/maintenance-window-timing.js';
import type { ApiModule } from '../http/app.js';
import type { ActiveWindow } from '../process/evaluation-decision.js';
import type { HoldingWindow } from '../process/escalation/escalation-hold.js';
import { collectGuarded } from '../metrics-collect.js';
import type { ReadModelReader } from '../readstore/port.js';

/** The windows active at `at`, by tenant: one query over the windows not over yet, then the timing. */
export async function activeWindowsByTenant(reader: ReadModelReader, at: Date): Promise<Map<string, ActiveWindow[]>> {
  const byTenant = new Map<string, ActiveWindow[]>();
  for (const doc of await liveWindows(reader, at)) {
    if (!isWindowActive(timedWindowOf(doc), at.getTime())) continue;
    const list = byTenant.get(doc.tenantId) ?? [];
    list.push({ id: doc.id, matcher: doc.matcher });
    byTenant.set(doc.tenantId, list);
  }
  return byTenant;
}

/** A tenant's windows that can still be active, as the escalation hold reads them. */
export const holdingWindows = async (reader: ReadModelReader, tenantId: string, at: Date): Promise<HoldingWindow[]> =>
  (await liveWindows(reader, at, tenantId)).map((doc) => ({ id: doc.id, matcher: doc.matcher, ...timedWindowOf(doc) }));

export function composeMaintenanceWindows(deps: {
  commandDeps: CommandDeps;
  reader: ReadModelReader;
  registry: Registry;
}) {
  const { commandDeps, reader } = deps;
  new Gauge({
    name: 'maintenance_windows_active',
    help: "Maintenance windows active now, every tenant's",
    registers: [deps.registry],
    // While the read store is down the last count stays, and the failure is counted (src/metrics-collect.ts).
    collect() {
      return collectGuarded(deps.registry, 'maintenance_windows_active', async () => {
        let count = 0;
        for (const windows of (await activeWindowsByTenant(reader, commandDeps.now())).values())
          count += windows.length;
        this.set(count);
      });
    },
  });
  const routes: ApiModule[] = [
    {
      alias: false,
      routes: () =>
        maintenanceWindowCommandRoutes({
          ...commandDeps,
          unknownRuleIds: async (tenantId, ruleIds) => {
            if (ruleIds.length === 0) return [];
            const found = await reader.find<AlertRuleDoc>(ALERT_RULES, {
              tenantId,
              deleted: false,
              id: { $in: [...new Set(ruleIds)] },
            });
            const known = new Set(found.map((doc) => doc.id));
            return ruleIds.filter((id) => !known.has(id));
          },
          viewWindow: async (tenantId, id) => {
            const doc = await findMaintenanceWindow(reader, tenantId, id);
            return doc ? maintenanceWindowView(doc, commandDeps.now()) : null;
          },
        }),
    },
    {
      alias: false,
      routes: () => maintenanceWindowQueryRoutes({ reader, eventStore: commandDeps.eventStore, now: commandDeps.now }),
    },
  ];
  return { routes, activeWindows: (at: Date) => activeWindowsByTenant(reader, at) };
}
