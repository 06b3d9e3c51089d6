/**
 * How the Maintenance page says things (pure, so it is tested without a browser): a window's state
 * at an instant (active now, upcoming with its next start, ended), when it applies ("every Mon, Wed
 * at 02:00 Europe/Berlin for 2 h"), what it matches with rule names rather than ids, whether it
 * matches a rule (the API's own rule: every list given must contain the rule's value), and the
 * order the page lists windows in (active first).
 */
import type { AlertRule, MaintenanceWindow, Weekday, WindowMatcher } from './api/types.js';

/** How an instant is shown; the page passes the browser's locale, tests a fixed one. */
export type InstantWords = (iso: string) => string;

export type WindowState =
  | { kind: 'active'; until: string | null }
  | { kind: 'upcoming'; startsAt: string }
  | { kind: 'ended'; at: string | null };

const DAY_WORDS: Record<Weekday, string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};
const WEEK: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** A window's state as the API answered it (`active`, `next_change_at`, `ended_at`). */
export function windowState(window: MaintenanceWindow): WindowState {
  if (window.active) return { kind: 'active', until: window.next_change_at };
  if (window.ended_at === null && window.next_change_at !== null)
    return { kind: 'upcoming', startsAt: window.next_change_at };
  return { kind: 'ended', at: window.ended_at ?? window.ends_at };
}

/** The state's word for its badge, and what follows it ("until …", "starts …", when it ended). */
export function stateParts(state: WindowState, instant: InstantWords): [label: string, detail: string] {
  if (state.kind === 'active') return ['active now', state.until ? `until ${instant(state.until)}` : ''];
  if (state.kind === 'upcoming') return ['upcoming', `starts ${instant(state.startsAt)}`];
  return ['ended', state.at ? instant(state.at) : ''];
}

export const stateWords = (state: WindowState, instant: InstantWords) =>
  stateParts(state, instant)
    .filter(Boolean)
    .join(state.kind === 'ended' ? ' ' : ', ');

/** 120 → "2 h", 90 → "1 h 30 min", 45 → "45 min". */
export function minutesWords(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** When the window applies: its one interval, or its weekly recurrence in its zone. */
export function whenWords(
  window: Pick<MaintenanceWindow, 'starts_at' | 'ends_at' | 'recurrence'>,
  instant: InstantWords,
): string {
  const weekly = window.recurrence;
  if (weekly) {
    const days =
      weekly.days.length === 7
        ? 'day'
        : [...weekly.days]
            .sort((a, b) => WEEK.indexOf(a) - WEEK.indexOf(b))
            .map((day) => DAY_WORDS[day])
            .join(', ');
    return `every ${days} at ${weekly.start_time} ${weekly.time_zone} for ${minutesWords(weekly.duration_minutes)}`;
  }
  if (window.starts_at && window.ends_at) return `${instant(window.starts_at)} → ${instant(window.ends_at)}`;
  return '—';
}

/** "a or b", "a, b or c". */
function either(words: string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/** What the matcher silences, in words, naming rules by name (a rule since deleted is said so). */
export function matchWords(matcher: WindowMatcher, ruleNames: ReadonlyMap<string, string>): string {
  if (matcher.all_rules) return 'every alert rule';
  const parts: string[] = [];
  if (matcher.rule_ids.length > 0) {
    const names = matcher.rule_ids.map((id) => (ruleNames.has(id) ? `“${ruleNames.get(id)}”` : 'a deleted rule'));
    parts.push(`${matcher.rule_ids.length === 1 ? 'rule' : 'rules'} ${either(names)}`);
  } else {
    parts.push('rules');
  }
  if (matcher.cluster_ids.length > 0)
    parts.push(`on ${matcher.cluster_ids.length === 1 ? 'cluster' : 'clusters'} ${either(matcher.cluster_ids)}`);
  if (matcher.severities.length > 0) parts.push(`of severity ${either(matcher.severities)}`);
  return parts.join(' ');
}

/** The API's matching: all rules, or every list given contains the rule's value (no cluster: a cluster list does not match). */
export function matchesRule(matcher: WindowMatcher, rule: Pick<AlertRule, 'id' | 'cluster_id' | 'severity'>): boolean {
  if (matcher.all_rules) return true;
  if (matcher.rule_ids.length === 0 && matcher.cluster_ids.length === 0 && matcher.severities.length === 0)
    return false;
  if (matcher.rule_ids.length > 0 && !matcher.rule_ids.includes(rule.id)) return false;
  if (matcher.cluster_ids.length > 0 && (rule.cluster_id === null || !matcher.cluster_ids.includes(rule.cluster_id)))
    return false;
  if (matcher.severities.length > 0 && !matcher.severities.includes(rule.severity)) return false;
  return true;
}

/** The first of the active windows that silences the rule, if any. */
export const silencingWindow = (
  active: readonly MaintenanceWindow[],
  rule: Pick<AlertRule, 'id' | 'cluster_id' | 'severity'>,
) => active.find((window) => window.active && matchesRule(window.matcher, rule));

const RANK: Record<WindowState['kind'], number> = { active: 0, upcoming: 1, ended: 2 };

/** Active first, then upcoming soonest first, then ended most recent first; names break ties. */
export function windowOrder(a: MaintenanceWindow, b: MaintenanceWindow): number {
  const [sa, sb] = [windowState(a), windowState(b)];
  if (sa.kind !== sb.kind) return RANK[sa.kind] - RANK[sb.kind];
  const at = (s: WindowState) =>
    s.kind === 'upcoming'
      ? Date.parse(s.startsAt)
      : s.kind === 'ended'
        ? -Date.parse(s.at ?? '1970-01-01T00:00:00Z')
        : 0;
  return at(sa) - at(sb) || a.name.localeCompare(b.name);
}

const EVENT_WORDS: Record<string, string> = {
  MaintenanceWindowCreated: 'created',
  MaintenanceWindowUpdated: 'changed',
  MaintenanceWindowEnded: 'ended early',
  MaintenanceWindowDeleted: 'deleted',
};

/** A history entry in words: "ended early by user:… at …". */
/** `who` says the actor as a person reads it (components/use-people.ts): a name or "you", never an id. */
export const historyWords = (
  entry: { type: string; actor: string; occurred_at: string },
  instant: InstantWords,
  who: (actor: string) => string = (actor) => actor,
) => `${EVENT_WORDS[entry.type] ?? entry.type} by ${who(entry.actor)} at ${instant(entry.occurred_at)}`;
