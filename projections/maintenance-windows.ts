import type { MaintenanceWindowData } from '../src/events/maintenance-window.js';
import type { Projection } from '../src/projection-runner/projection.js';

/**
 * Read model `maintenanceWindows`: one document per window, deleted ones kept and marked (their
 * history stays readable). `liveUntil` is the last instant the window can be active (a one-off's
 * end, the moment it was ended early, or far in the future for a weekly one), so the evaluator and
 * the escalation manager read only the windows that can matter now, in one indexed query.
 */
export interface MaintenanceWindowDoc extends Omit<MaintenanceWindowData, 'windowId'> {
  id: string;
  tenantId: string;
  endedAt: string | null;
  /** Who ended it early (the actor of MaintenanceWindowEnded). */
  endedBy: string | null;
  deleted: boolean;
  liveUntil: string;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  revision: number;
  [field: string]: unknown;
}

export const MAINTENANCE_WINDOWS = 'maintenanceWindows';
/** A weekly window never ends by itself. ISO strings compare in time order. */
export const FOREVER = '9999-12-31T23:59:59.999Z';

const liveUntilOf = (window: Pick<MaintenanceWindowData, 'timing'>, endedAt: string | null): string => {
  const natural = window.timing.kind === 'once' ? window.timing.endsAt : FOREVER;
  return endedAt !== null && endedAt < natural ? endedAt : natural;
};

export const maintenanceWindowsProjection: Projection = {
  name: 'maintenanceWindows',
  version: 1,
  handles: [
    'MaintenanceWindowCreated',
    'MaintenanceWindowUpdated',
    'MaintenanceWindowEnded',
    'MaintenanceWindowDeleted',
  ],
  collections: {
    [MAINTENANCE_WINDOWS]: [
      { name: 'tenant_created', fields: ['tenantId', 'createdAt', 'id'] },
      // The evaluator's and the escalation manager's read: the windows that can still be active.
      { name: 'live', fields: ['deleted', 'liveUntil'] },
      { name: 'tenant_live', fields: ['tenantId', 'deleted', 'liveUntil'] },
    ],
  },
  async apply(event, writer) {
    const at = event.metadata.occurredAt;
    const revision = Number(event.revision);
    switch (event.type) {
      case 'MaintenanceWindowCreated': {
        const { windowId, ...window } = event.data as unknown as MaintenanceWindowData;
        await writer.upsert(MAINTENANCE_WINDOWS, {
          ...window,
          id: windowId,
          tenantId: event.metadata.tenantId,
          endedAt: null,
          endedBy: null,
          deleted: false,
          liveUntil: liveUntilOf(window, null),
          createdAt: at,
          createdBy: event.metadata.actor,
          updatedAt: at,
          revision,
        });
        break;
      }
      case 'MaintenanceWindowUpdated': {
        const { windowId, ...window } = event.data as unknown as MaintenanceWindowData;
        const current = await writer.get<MaintenanceWindowDoc>(MAINTENANCE_WINDOWS, windowId);
        await writer.patch(MAINTENANCE_WINDOWS, windowId, {
          ...window,
          liveUntil: liveUntilOf(window, current?.endedAt ?? null),
          updatedAt: at,
          revision,
        });
        break;
      }
      case 'MaintenanceWindowEnded': {
        const windowId = String(event.data.windowId);
        const current = await writer.get<MaintenanceWindowDoc>(MAINTENANCE_WINDOWS, windowId);
        if (!current) break;
        const endedAt = String(event.data.endedAt);
        await writer.patch(MAINTENANCE_WINDOWS, windowId, {
          endedAt,
          endedBy: event.metadata.actor,
          liveUntil: liveUntilOf(current, endedAt),
          updatedAt: at,
          revision,
        });
        break;
      }
      case 'MaintenanceWindowDeleted':
        await writer.patch(MAINTENANCE_WINDOWS, String(event.data.windowId), {
          deleted: true,
          updatedAt: at,
          revision,
        });
        break;
    }
  },
};
