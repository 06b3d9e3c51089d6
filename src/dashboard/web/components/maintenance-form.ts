/**
 * The maintenance window editor's form and the body it sends (pure). Interval times are typed as
 * `datetime-local` wall clocks in the browser's zone and sent as instants; a weekly window's start
 * is a wall clock in its own IANA zone, which the API resolves (DST as the schedules do).
 */
import type { MaintenanceWindow, MaintenanceWindowBody, Weekday, WindowMatcher } from '../api/types.js';

export interface WindowForm {
  name: string;
  reason: string;
  allRules: boolean;
  ruleIds: string[];
  clusterIds: string[];
  severities: WindowMatcher['severities'];
  timing: 'once' | 'weekly';
  /** `datetime-local` values in the browser's zone. */
  startsAt: string;
  endsAt: string;
  days: Weekday[];
  startTime: string;
  durationMinutes: string;
  timeZone: string;
}

/** A `datetime-local` value of an instant in the browser's zone. */
export function localInput(instant: number): string {
  const at = new Date(instant);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}`;
}

/** A new window: now for an hour, or the window being edited as it is. */
export function windowForm(zone: string, now: number, window?: MaintenanceWindow): WindowForm {
  const weekly = window?.recurrence ?? null;
  return {
    name: window?.name ?? '',
    reason: window?.reason ?? '',
    allRules: window?.matcher.all_rules ?? false,
    ruleIds: window?.matcher.rule_ids ?? [],
    clusterIds: window?.matcher.cluster_ids ?? [],
    severities: window?.matcher.severities ?? [],
    timing: weekly ? 'weekly' : 'once',
    startsAt: window?.starts_at ? localInput(Date.parse(window.starts_at)) : localInput(now),
    endsAt: window?.ends_at ? localInput(Date.parse(window.ends_at)) : localInput(now + 3_600_000),
    days: weekly?.days ?? [],
    startTime: weekly?.start_time ?? '02:00',
    durationMinutes: String(weekly?.duration_minutes ?? 120),
    timeZone: weekly?.time_zone ?? zone,
  };
}

/** A wall clock as an instant; text that does not read is sent as typed, so the API names the field. */
const instantOf = (wallClock: string): string | undefined => {
  if (wallClock.trim() === '') return undefined;
  const at = new Date(wallClock).getTime();
  return Number.isNaN(at) ? wallClock : new Date(at).toISOString();
};

export function bodyOf(form: WindowForm): MaintenanceWindowBody {
  const matcher: WindowMatcher = form.allRules
    ? { all_rules: true, rule_ids: [], cluster_ids: [], severities: [] }
    : { all_rules: false, rule_ids: form.ruleIds, cluster_ids: form.clusterIds, severities: form.severities };
  const common = { name: form.name, reason: form.reason, matcher };
  if (form.timing === 'weekly') {
    const minutes = Number(form.durationMinutes);
    return {
      ...common,
      recurrence: {
        days: form.days,
        start_time: form.startTime,
        time_zone: form.timeZone,
        duration_minutes:
          form.durationMinutes.trim() !== '' && Number.isFinite(minutes)
            ? minutes
            : (form.durationMinutes as unknown as number),
      },
    };
  }
  const [startsAt, endsAt] = [instantOf(form.startsAt), instantOf(form.endsAt)];
  return { ...common, ...(startsAt ? { starts_at: startsAt } : {}), ...(endsAt ? { ends_at: endsAt } : {}) };
}

/** A list with the value in or out. */
export const toggled = <T>(list: readonly T[], value: T, on: boolean): T[] =>
  on ? (list.includes(value) ? [...list] : [...list, value]) : list.filter((v) => v !== value);
