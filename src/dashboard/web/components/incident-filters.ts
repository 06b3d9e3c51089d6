/**
 * The incident list's filters, kept in the URL fragment (#/incidents?status=resolved&severity=high)
 * so a reload or a shared link shows the same list. Status, severity, rule and the time range are
 * the API's own filters (GET /api/v1/incidents: status, severity, rule_id, from); the cluster and
 * the text search (rule name) are not, so they narrow the loaded page here. `matches` applies
 * them all, to the loaded page and to each incident the live feed brings.
 */
import type { Incident } from '../api/types';

export const STATUS_FILTERS = {
  open: 'Open',
  triggered: 'Triggered',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
  all: 'All',
} as const;
export const RANGE_FILTERS = {
  '': 'Any time',
  '1h': 'Last hour',
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
} as const;
import { SEVERITIES } from '../../../contract/vocabulary';

export { SEVERITIES };
const RANGE_MS: Record<string, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

export type StatusFilter = keyof typeof STATUS_FILTERS;
export type RangeFilter = keyof typeof RANGE_FILTERS;

export interface IncidentFilters {
  status: StatusFilter;
  severity: '' | Incident['severity'];
  /** A rule's id (picked by name). */
  rule: string;
  cluster: string;
  range: RangeFilter;
  /** Text the rule's name contains (any case). */
  q: string;
}

export const DEFAULT_FILTERS: IncidentFilters = {
  status: 'open',
  severity: '',
  rule: '',
  cluster: '',
  range: '',
  q: '',
};

const oneOf = <T extends string>(value: string | null, allowed: readonly T[], fallback: T): T =>
  value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;

/** The filters a fragment names; anything unknown or missing is the default. */
export function filtersFromHash(hash: string): IncidentFilters {
  const at = hash.indexOf('?');
  const params = new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
  return {
    status: oneOf(params.get('status'), Object.keys(STATUS_FILTERS) as StatusFilter[], 'open'),
    severity: oneOf(params.get('severity'), ['', ...SEVERITIES], ''),
    rule: params.get('rule') ?? '',
    cluster: params.get('cluster') ?? '',
    range: oneOf(params.get('range'), Object.keys(RANGE_FILTERS) as RangeFilter[], ''),
    q: params.get('q') ?? '',
  };
}

/** The fragment for these filters: only what differs from the default. */
export function hashOf(filters: IncidentFilters): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(DEFAULT_FILTERS) as (keyof IncidentFilters)[]) {
    if (filters[key] !== DEFAULT_FILTERS[key]) params.set(key, filters[key]);
  }
  const query = params.toString();
  return query ? `#/incidents?${query}` : '#/incidents';
}

export const isDefault = (filters: IncidentFilters) => hashOf(filters) === '#/incidents';

/** The earliest trigger time the range allows (undefined: any time). */
export const rangeStart = (range: RangeFilter, now: number): string | undefined =>
  range ? new Date(now - RANGE_MS[range]!).toISOString() : undefined;

/** The API's query for the filters it knows (GET /api/v1/incidents). */
export function serverQuery(filters: IncidentFilters, from: string | undefined): URLSearchParams {
  const params = new URLSearchParams({ limit: '200' });
  if (filters.status === 'open') params.set('status', 'triggered,acknowledged');
  else if (filters.status !== 'all') params.set('status', filters.status);
  if (filters.severity) params.set('severity', filters.severity);
  if (filters.rule) params.set('rule_id', filters.rule);
  if (from) params.set('from', from);
  return params;
}

/** Whether an incident belongs in the list these filters describe. */
export function matches(filters: IncidentFilters, incident: Incident, from: string | undefined): boolean {
  const status =
    filters.status === 'open'
      ? incident.status !== 'resolved'
      : filters.status === 'all' || incident.status === filters.status;
  return (
    status &&
    (!filters.severity || incident.severity === filters.severity) &&
    (!filters.rule || incident.rule_id === filters.rule) &&
    (!filters.cluster || incident.cluster_id === filters.cluster) &&
    (!from || Date.parse(incident.triggered_at) >= Date.parse(from)) &&
    (!filters.q || incident.title.toLowerCase().includes(filters.q.trim().toLowerCase()))
  );
}
