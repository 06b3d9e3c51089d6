/**
 * On-call schedules, the model: events of the `schedule-<id>` streams, the schedule as it stands,
 * and how events change it. Created and Replaced carry the whole schedule; overrides can also be
 * added and removed one at a time, so two people editing overrides never overwrite each other.
 * The meaning of layers and overrides (who is on call when) is the pure math in src/oncall/.
 */
import { z } from 'zod';

const layer = z.object({
  userIds: z.array(z.uuid()),
  rotationType: z.enum(['daily', 'weekly']),
  /** ISO 8601; without an offset it is a wall clock in the schedule's zone. */
  startTime: z.string(),
});

const override = z.object({
  overrideId: z.uuid(),
  userId: z.uuid(),
  start: z.string(),
  end: z.string(),
  reason: z.string().nullable(),
});

const scheduleFields = {
  scheduleId: z.uuid(),
  name: z.string(),
  timezone: z.string(),
  layers: z.array(layer),
  /** In the order they were added: a later one wins where overrides overlap. */
  overrides: z.array(override),
};

export const scheduleEvents = {
  ScheduleCreated: z.object(scheduleFields),
  ScheduleReplaced: z.object(scheduleFields),
  ScheduleDeleted: z.object({ scheduleId: z.uuid() }),
  ScheduleOverrideAdded: z.object({ scheduleId: z.uuid(), override }),
  ScheduleOverrideRemoved: z.object({ scheduleId: z.uuid(), overrideId: z.uuid() }),
};

type Data<K extends keyof typeof scheduleEvents> = z.infer<(typeof scheduleEvents)[K]>;
export type ScheduleEvent = {
  [K in keyof typeof scheduleEvents]: { type: K; data: Data<K> };
}[keyof typeof scheduleEvents];
export type ScheduleData = Data<'ScheduleCreated'>;
export type ScheduleLayer = z.infer<typeof layer>;
export type ScheduleOverride = z.infer<typeof override>;

export const scheduleStream = (id: string) => `schedule-${id}`;

export interface ScheduleState {
  status: 'absent' | 'active' | 'deleted';
  schedule?: ScheduleData;
}

export const initialScheduleState = (): ScheduleState => ({ status: 'absent' });

/** The schedule after an event; shared by the decider's fold and the read model. */
export function evolveSchedule(state: ScheduleState, event: ScheduleEvent): ScheduleState {
  switch (event.type) {
    case 'ScheduleCreated':
    case 'ScheduleReplaced':
      return { status: 'active', schedule: event.data };
    case 'ScheduleDeleted':
      return { ...state, status: 'deleted' };
    case 'ScheduleOverrideAdded':
      return state.schedule
        ? { ...state, schedule: { ...state.schedule, overrides: [...state.schedule.overrides, event.data.override] } }
        : state;
    case 'ScheduleOverrideRemoved':
      return state.schedule
        ? {
            ...state,
            schedule: {
              ...state.schedule,
              overrides: state.schedule.overrides.filter((o) => o.overrideId !== event.data.overrideId),
            },
          }
        : state;
  }
}
