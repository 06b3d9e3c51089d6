/**
 * Incident analytics and on-call health (GET /analytics/incidents and /analytics/oncall,
 * docs/analytics.md): the last 7, 14, 30 or 90 days grouped as picked, day and week buckets in the
 * browser's zone; bar charts (SVG, drawn here, nothing fetched from elsewhere) and the tables.
 */
import { useState } from 'preact/hooks';
import type { AnalyticsGroupBy } from '../api/types';
import { BarChart } from '../components/BarChart';
import { DataTable } from '../components/DataTable';
import { ErrorNote } from '../components/ErrorNote';
import { useSession } from '../components/session-context';
import { useLoad } from '../components/use-load';
import { duration, number } from '../format';

const GROUPINGS: AnalyticsGroupBy[] = ['rule', 'policy', 'severity', 'cluster', 'source', 'day', 'week'];
const RANGES = [7, 14, 30, 90];
const seconds = (value: number | null) => (value === null ? '—' : duration(value * 1000));
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function AnalyticsPage() {
  const { calls } = useSession();
  const [groupBy, setGroupBy] = useState<AnalyticsGroupBy>('rule');
  const [days, setDays] = useState(30);
  const incidents = useLoad(() => calls.incidentAnalytics(groupBy, days, browserZone()), [groupBy, days]);
  const oncall = useLoad(() => calls.oncallHealth(days), [days]);
  const value = (event: Event) => (event.currentTarget as HTMLSelectElement).value;
  const name = (key: string | null, label: string | null) => label ?? key ?? 'no cluster';
  return (
    <section>
      <h1>Incident analytics</h1>
      <form class="filters" aria-label="Analytics range and grouping" onSubmit={(event) => event.preventDefault()}>
        <label>
          Last
          <select name="days" value={String(days)} onChange={(event) => setDays(Number(value(event)))}>
            {RANGES.map((n) => (
              <option key={n} value={String(n)}>
                {n} days
              </option>
            ))}
          </select>
        </label>
        <label>
          Group by
          <select name="group_by" value={groupBy} onChange={(event) => setGroupBy(value(event) as AnalyticsGroupBy)}>
            {GROUPINGS.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </label>
      </form>
      <ErrorNote error={incidents.error} />
      {incidents.value ? (
        <>
          <p class="muted">
            Incidents opened since {new Date(incidents.value.since).toLocaleString()}; days and weeks in{' '}
            {incidents.value.tz}.
          </p>
          <BarChart
            title={`incidents opened per ${groupBy}`}
            unit=""
            bars={incidents.value.groups.map((g) => ({ label: name(g.key, g.label), value: g.opened }))}
          />
          <DataTable
            testId="analytics-groups"
            rows={incidents.value.groups}
            empty="No incident in this range."
            columns={[
              { heading: groupBy, cell: (g) => name(g.key, g.label) },
              { heading: 'Opened', numeric: true, cell: (g) => g.opened },
              { heading: 'Acknowledged', numeric: true, cell: (g) => g.acknowledged },
              { heading: 'Resolved (auto)', numeric: true, cell: (g) => `${g.resolved.total} (${g.resolved.auto})` },
              {
                heading: 'MTTA / p90',
                numeric: true,
                cell: (g) => `${seconds(g.mtta_seconds)} / ${seconds(g.p90_tta_seconds)}`,
              },
              {
                heading: 'MTTR / p90',
                numeric: true,
                cell: (g) => `${seconds(g.mttr_seconds)} / ${seconds(g.p90_ttr_seconds)}`,
              },
              { heading: 'Stage ≥ 2', numeric: true, cell: (g) => g.escalated_to_stage_2 },
              { heading: 'Pages', numeric: true, cell: (g) => Object.values(g.pages).reduce((a, b) => a + b, 0) },
              { heading: 'Failed pages', numeric: true, cell: (g) => g.failed_pages },
            ]}
          />
          <h2>Noisiest rules</h2>
          <DataTable
            testId="analytics-noisiest"
            rows={incidents.value.noisiest}
            empty="No incident in this range."
            columns={[
              { heading: 'Rule', cell: (r) => r.rule_name },
              { heading: 'Incidents', numeric: true, cell: (r) => r.incidents },
              { heading: 'Per week', numeric: true, cell: (r) => number(r.incidents_per_week, 2) },
              {
                heading: 'Flapping (auto-resolved ≤ 5 min)',
                numeric: true,
                cell: (r) => `${r.flapping} (${number(r.flapping_share * 100)} %)`,
              },
            ]}
          />
        </>
      ) : null}
      <h2>On-call health</h2>
      <ErrorNote error={oncall.error} />
      {oncall.value ? (
        <>
          <BarChart
            title="pages at night per person"
            unit=""
            bars={oncall.value.people.map((p) => ({ label: p.name ?? p.user_id, value: p.pages_at_night }))}
          />
          <DataTable
            testId="analytics-oncall"
            rows={oncall.value.people}
            empty="Nobody was paged or on call in this range."
            columns={[
              { heading: 'Person', cell: (p) => p.name ?? p.user_id },
              { heading: 'Pages', numeric: true, cell: (p) => p.pages_received },
              { heading: 'At night (22–07)', numeric: true, cell: (p) => p.pages_at_night },
              { heading: 'Zones', cell: (p) => p.zones_used.map((z) => `${z.zone} (${z.source})`).join(', ') || '—' },
              { heading: 'Hours on call', numeric: true, cell: (p) => number(p.hours_on_call, 1) },
            ]}
          />
        </>
      ) : null}
    </section>
  );
}
