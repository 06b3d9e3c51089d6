import { evolveSchedule, type ScheduleData, type ScheduleEvent } from '../src/events/schedule.js';
import type { Projection } from '../src/projection-runner/projection.js';

/** Read model `schedules`: one document per live schedule, folded with the model's own evolve. */
export interface ScheduleDoc extends Omit<ScheduleData, 'scheduleId'> {
  id: string;
  tenantId: string;
  createdAt: string;
  updatedAt: string;
  revision: number;
  [field: string]: unknown;
}

export const SCHEDULES = 'schedules';

export const schedulesProjection: Projection = {
  name: 'schedules',
  version: 1,
  handles: [
    'ScheduleCreated',
    'ScheduleReplaced',
    'ScheduleDeleted',
    'ScheduleOverrideAdded',
    'ScheduleOverrideRemoved',
  ],
  collections: { [SCHEDULES]: [{ name: 'tenant_created', fields: ['tenantId', 'createdAt', 'id'] }] },
  async apply(event, writer) {
    const scheduleId = String(event.data.scheduleId);
    if (event.type === 'ScheduleDeleted') {
      await writer.delete(SCHEDULES, scheduleId);
      return;
    }
    const current = await writer.get<ScheduleDoc>(SCHEDULES, scheduleId);
    const state = current
      ? { status: 'active' as const, schedule: { ...current, scheduleId } }
      : { status: 'absent' as const };
    const next = evolveSchedule(state, { type: event.type, data: event.data } as ScheduleEvent);
    if (!next.schedule) return;
    const { scheduleId: _id, ...schedule } = next.schedule;
    const at = event.metadata.occurredAt;
    await writer.upsert(SCHEDULES, {
      name: schedule.name,
      timezone: schedule.timezone,
      layers: schedule.layers,
      overrides: schedule.overrides,
      id: scheduleId,
      tenantId: event.metadata.tenantId,
      createdAt: current?.createdAt ?? at,
      updatedAt: at,
      revision: Number(event.revision),
    } satisfies ScheduleDoc);
  },
};
