/**
 * Maintenance windows: the decider, and a body's timing in event terms (the window as clients send
 * it, with every shape check that needs no I/O, is src/contract/bodies/maintenance-windows.ts). The model is src/events/maintenance-window.ts;
 * the routes are commands/maintenance-window-routes.ts.
 */
import type { Decider } from '../src/commanding/decider.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import {
  evolveMaintenanceWindow,
  initialMaintenanceWindowState,
  type MaintenanceWindowData,
  type MaintenanceWindowEvent,
  type MaintenanceWindowState,
  type WindowTiming,
} from '../src/events/maintenance-window.js';
import type { MaintenanceWindowBody } from '../src/contract/bodies/maintenance-windows.js';

/** The timing of a valid body, in event terms (instants normalised to UTC). */
export function timingFrom(body: MaintenanceWindowBody): WindowTiming {
  if (body.recurrence) {
    const r = body.recurrence;
    return {
      kind: 'weekly',
      days: r.days,
      startTime: r.start_time,
      durationMinutes: r.duration_minutes,
      timeZone: r.time_zone,
    };
  }
  return {
    kind: 'once',
    startsAt: new Date(body.starts_at!).toISOString(),
    endsAt: new Date(body.ends_at!).toISOString(),
  };
}

export const toWindowData = (windowId: string, body: MaintenanceWindowBody): MaintenanceWindowData => ({
  windowId,
  name: body.name,
  reason: body.reason,
  matcher: {
    allRules: body.matcher.all_rules,
    ruleIds: body.matcher.rule_ids,
    clusterIds: body.matcher.cluster_ids,
    severities: body.matcher.severities,
  },
  timing: timingFrom(body),
});

export type MaintenanceWindowCommand =
  | { kind: 'CreateMaintenanceWindow'; window: MaintenanceWindowData }
  | { kind: 'UpdateMaintenanceWindow'; window: MaintenanceWindowData }
  | { kind: 'EndMaintenanceWindow'; windowId: string }
  | { kind: 'DeleteMaintenanceWindow'; windowId: string };

export const maintenanceWindowDecider: Decider<
  MaintenanceWindowState,
  MaintenanceWindowCommand,
  MaintenanceWindowEvent
> = {
  initialState: initialMaintenanceWindowState,
  evolve: evolveMaintenanceWindow,
  decide: (command, state, context) => {
    switch (command.kind) {
      case 'CreateMaintenanceWindow':
        if (state.status !== 'absent') throw rejectConflict('a maintenance window with this id already exists');
        return [{ type: 'MaintenanceWindowCreated', data: command.window }];
      case 'UpdateMaintenanceWindow':
        if (state.status !== 'active') throw rejectNotFound('maintenance window');
        // An ended window stays ended: an edit does not bring it back.
        if (state.endedAt !== null)
          throw rejectConflict('the maintenance window was ended; create a new one', { ended_at: state.endedAt });
        return [{ type: 'MaintenanceWindowUpdated', data: command.window }];
      case 'EndMaintenanceWindow':
        if (state.status !== 'active') throw rejectNotFound('maintenance window');
        // Ending twice changes nothing (the first end stands): idempotent for a retried request.
        if (state.endedAt !== null) return [];
        return [
          { type: 'MaintenanceWindowEnded', data: { windowId: command.windowId, endedAt: context.now.toISOString() } },
        ];
      case 'DeleteMaintenanceWindow':
        if (state.status !== 'active') throw rejectNotFound('maintenance window');
        return [{ type: 'MaintenanceWindowDeleted', data: { windowId: command.windowId } }];
    }
  },
};
