/**
 * Maintenance windows, the model: events of the `maintenanceWindow-<id>` streams (created and
 * updated carry the whole window, so the fold is trivial), the state a command sees, and how events
 * change it. A window silences the alert rules its matcher names while it is active (the timing is
 * src/events/maintenance-window-timing.ts): their evaluations are recorded as `silenced`, no
 * incident opens, and an incident already open has its remaining escalation stages held.
 */
import { z } from 'zod';
import { WEEKDAYS } from '../contract/vocabulary.js';
import { severitySchema } from './vocabulary.js';

export { WEEKDAYS, type Weekday } from '../contract/vocabulary.js';

/** Which rules a window silences: every rule, or those matching every list given (any entry of a list). */
export const windowMatcherSchema = z.object({
  allRules: z.boolean(),
  ruleIds: z.array(z.uuid()),
  clusterIds: z.array(z.string()),
  severities: z.array(severitySchema),
});

/** One interval, or every week on some days from a local time for a duration in an IANA zone. */
export const windowTimingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('once'), startsAt: z.iso.datetime(), endsAt: z.iso.datetime() }),
  z.object({
    kind: z.literal('weekly'),
    days: z.array(z.enum(WEEKDAYS)),
    /** Local `HH:MM` in `timeZone`. */
    startTime: z.string(),
    durationMinutes: z.number().int(),
    timeZone: z.string(),
  }),
]);

export const maintenanceWindowFields = {
  windowId: z.uuid(),
  name: z.string(),
  reason: z.string(),
  matcher: windowMatcherSchema,
  timing: windowTimingSchema,
};

export const maintenanceWindowEvents = {
  MaintenanceWindowCreated: z.object(maintenanceWindowFields),
  MaintenanceWindowUpdated: z.object(maintenanceWindowFields),
  /** Ended early by someone (`POST …/{id}/end`): inactive from `endedAt` on, a weekly one for good. */
  MaintenanceWindowEnded: z.object({ windowId: z.uuid(), endedAt: z.iso.datetime() }),
  MaintenanceWindowDeleted: z.object({ windowId: z.uuid() }),
};

export type MaintenanceWindowData = z.infer<typeof maintenanceWindowEvents.MaintenanceWindowCreated>;
export type WindowMatcher = z.infer<typeof windowMatcherSchema>;
export type WindowTiming = z.infer<typeof windowTimingSchema>;

export type MaintenanceWindowEvent =
  | { type: 'MaintenanceWindowCreated'; data: MaintenanceWindowData }
  | { type: 'MaintenanceWindowUpdated'; data: MaintenanceWindowData }
  | { type: 'MaintenanceWindowEnded'; data: { windowId: string; endedAt: string } }
  | { type: 'MaintenanceWindowDeleted'; data: { windowId: string } };

export const MAINTENANCE_WINDOW_STREAM_PREFIX = 'maintenanceWindow-';
export const maintenanceWindowStream = (id: string) => `${MAINTENANCE_WINDOW_STREAM_PREFIX}${id}`;

export interface MaintenanceWindowState {
  status: 'absent' | 'active' | 'deleted';
  window?: MaintenanceWindowData;
  /** Set once the window was ended early. */
  endedAt: string | null;
}

export const initialMaintenanceWindowState = (): MaintenanceWindowState => ({ status: 'absent', endedAt: null });

export function evolveMaintenanceWindow(
  state: MaintenanceWindowState,
  event: MaintenanceWindowEvent,
): MaintenanceWindowState {
  switch (event.type) {
    case 'MaintenanceWindowCreated':
    case 'MaintenanceWindowUpdated':
      return { ...state, status: 'active', window: event.data };
    case 'MaintenanceWindowEnded':
      return { ...state, endedAt: event.data.endedAt };
    case 'MaintenanceWindowDeleted':
      return { ...state, status: 'deleted' };
  }
}
