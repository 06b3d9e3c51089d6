/**
 * An on-call schedule as the editor holds it and as the API takes it. People are picked by name
 * (their ids never typed); times are `datetime-local` wall clocks sent without an offset, which the
 * API reads in the schedule's zone (SPEC.md: the zone interprets rotation start times). A saved time
 * with an offset is shown as the wall clock it is in the schedule's zone.
 */
// `.js`: test/dashboard-schedule-form.test.ts brings this file under the root tsconfig (Node resolution) too.
import type { ScheduleDetail, ScheduleDraft } from '../api/types.js';

export interface LayerForm {
  key: number;
  /** The ordered rotation pool: turn k goes to userIds[k mod n]. */
  userIds: string[];
  rotation: 'daily' | 'weekly';
  /** `YYYY-MM-DDTHH:mm`, a wall clock in the schedule's zone; '' until chosen. */
  start: string;
}

export interface OverrideForm {
  key: number;
  userId: string;
  start: string;
  end: string;
  reason: string;
}

export interface ScheduleForm {
  name: string;
  timezone: string;
  layers: LayerForm[];
  overrides: OverrideForm[];
}

let keys = 0;
const nextKey = () => ++keys;

/** The browser's zone: where a new schedule most likely lives. */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Every IANA zone the browser knows, for the zone picker ('UTC' too, which some browsers leave out). */
export function knownZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

const WALL_CLOCK = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::\d{2}(?:[.,]\d+)?)?)?$/;

/** A saved time as the `datetime-local` value it shows in `timeZone`; '' if it does not read. */
export function wallClockInput(iso: string, timeZone: string): string {
  const plain = WALL_CLOCK.exec(iso.trim());
  if (plain) return `${plain[1]}T${plain[2] ?? '00:00'}`;
  const instant = Date.parse(iso);
  if (Number.isNaN(instant)) return '';
  return wallClockAt(instant, timeZone);
}

/** The wall clock in `timeZone` at an instant, as a `datetime-local` value. */
export function wallClockAt(instant: number, timeZone: string): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(instant);
  } catch {
    // A zone still being typed: the browser's own clock is the best guess.
    return wallClockAt(instant, browserZone());
  }
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

/** A wall clock moved by whole hours (calendar arithmetic on the wall clock itself, no zone). */
function laterWallClock(wallClock: string, hours: number): string {
  const at = new Date(`${wallClock}:00Z`).getTime() + hours * 3_600_000;
  return new Date(at).toISOString().slice(0, 16);
}

export const emptyLayer = (timeZone: string): LayerForm => ({
  key: nextKey(),
  userIds: [],
  rotation: 'weekly',
  start: `${wallClockAt(Date.now(), timeZone).slice(0, 10)}T09:00`,
});

/** From the next full hour, for eight hours: a typical cover for someone's evening. */
export function emptyOverride(timeZone: string): OverrideForm {
  const start = laterWallClock(`${wallClockAt(Date.now(), timeZone).slice(0, 13)}:00`, 1);
  return { key: nextKey(), userId: '', start, end: laterWallClock(start, 8), reason: '' };
}

export function scheduleForm(schedule?: ScheduleDetail): ScheduleForm {
  if (!schedule) {
    const timezone = browserZone();
    return { name: '', timezone, layers: [emptyLayer(timezone)], overrides: [] };
  }
  const zone = schedule.timezone;
  return {
    name: schedule.name,
    timezone: zone,
    layers: schedule.layers.map((layer) => ({
      key: nextKey(),
      userIds: [...layer.user_ids],
      rotation: layer.rotation_type,
      start: wallClockInput(layer.start_time, zone),
    })),
    overrides: schedule.overrides.map((o) => ({
      key: nextKey(),
      userId: o.user_id,
      start: wallClockInput(o.start, zone),
      end: wallClockInput(o.end, zone),
      reason: o.reason ?? '',
    })),
  };
}

/** `datetime-local` gives minutes; the API takes them as they are, seconds added for a plain ISO 8601 look. */
const timeOf = (wallClock: string) => (/T\d{2}:\d{2}$/.test(wallClock) ? `${wallClock}:00` : wallClock);

/** Every field of the body, the overrides included (the form always has a list of them). */
export function draftOf(form: ScheduleForm): Required<ScheduleDraft> {
  return {
    name: form.name,
    timezone: form.timezone.trim(),
    layers: form.layers.map((layer) => ({
      user_ids: layer.userIds,
      rotation_type: layer.rotation,
      start_time: timeOf(layer.start),
    })),
    overrides: form.overrides.map((o) => ({
      user_id: o.userId,
      start: timeOf(o.start),
      end: timeOf(o.end),
      reason: o.reason.trim() === '' ? null : o.reason,
    })),
  };
}

/** Moves the item at `index` by one place; the list is unchanged at its ends. */
export function moved<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= list.length) return [...list];
  const copy = [...list];
  const [item] = copy.splice(index, 1);
  copy.splice(to, 0, item!);
  return copy;
}
