/**
 * The incident list's filters: status, severity, rule and cluster picked from lists (rules by
 * name), a time range, and a search of the rule's name. Each change is handed up at once; the
 * page keeps them in the URL fragment.
 */
import {
  RANGE_FILTERS,
  SEVERITIES,
  STATUS_FILTERS,
  type IncidentFilters,
  type RangeFilter,
  type StatusFilter,
} from './incident-filters';

interface Props {
  filters: IncidentFilters;
  onChange: (filters: IncidentFilters) => void;
  /** The rules to pick from: id and name. */
  rules: { id: string; name: string }[];
  clusters: string[];
}

export function IncidentFilterBar({ filters, onChange, rules, clusters }: Props) {
  const set = <K extends keyof IncidentFilters>(key: K, value: IncidentFilters[K]) =>
    onChange({ ...filters, [key]: value });
  const value = (event: Event) => (event.currentTarget as HTMLSelectElement | HTMLInputElement).value;
  return (
    <form
      class="filters"
      role="search"
      aria-label="Filter incidents"
      data-testid="incident-filters"
      onSubmit={(event) => event.preventDefault()}
    >
      <label>
        Status
        <select name="status" value={filters.status} onChange={(event) => set('status', value(event) as StatusFilter)}>
          {Object.entries(STATUS_FILTERS).map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Severity
        <select
          name="severity"
          value={filters.severity}
          onChange={(event) => set('severity', value(event) as IncidentFilters['severity'])}
        >
          <option value="">Any</option>
          {SEVERITIES.map((severity) => (
            <option key={severity} value={severity}>
              {severity}
            </option>
          ))}
        </select>
      </label>
      <label>
        Rule
        <select name="rule" value={filters.rule} onChange={(event) => set('rule', value(event))}>
          <option value="">Any rule</option>
          {rules.map((rule) => (
            <option key={rule.id} value={rule.id}>
              {rule.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Cluster
        <select name="cluster" value={filters.cluster} onChange={(event) => set('cluster', value(event))}>
          <option value="">Any cluster</option>
          {clusters.map((cluster) => (
            <option key={cluster} value={cluster}>
              {cluster}
            </option>
          ))}
        </select>
      </label>
      <label>
        Triggered
        <select name="range" value={filters.range} onChange={(event) => set('range', value(event) as RangeFilter)}>
          {Object.entries(RANGE_FILTERS).map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Search rules
        <input
          type="search"
          name="q"
          value={filters.q}
          placeholder="rule name"
          onInput={(event) => set('q', value(event))}
        />
      </label>
    </form>
  );
}
