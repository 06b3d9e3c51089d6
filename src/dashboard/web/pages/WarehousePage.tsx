/** The six warehouse health views of the token's environment, read live, with charts of storage and queue waits. */
import { BarChart } from '../components/BarChart';
import { DataTable } from '../components/DataTable';
import { ErrorNote } from '../components/ErrorNote';
import { QueueWaitChart } from '../components/QueueWaitChart';
import { useSession } from '../components/session-context';
import { useLoad } from '../components/use-load';
import { number, time } from '../format';

const shorten = (sql: string) => (sql.length > 90 ? `${sql.slice(0, 90)}…` : sql);

export function WarehousePage() {
  const { calls } = useSession();
  const views = useLoad(
    () =>
      Promise.all([
        calls.cluster(),
        calls.slowQueries(),
        calls.spill(),
        calls.vacuum(),
        calls.tableAlerts(),
        calls.storage(),
      ]),
    [],
  );
  const [cluster, slow, spill, vacuum, alerts, storage] = views.value ?? [];
  return (
    <section>
      <h1>
        Warehouse health{' '}
        <button type="button" class="button plain" onClick={views.reload} disabled={views.loading}>
          Refresh
        </button>
      </h1>
      <ErrorNote error={views.error} />
      {cluster ? (
        <>
          <h2>Storage</h2>
          <p class="muted" data-testid="storage-totals">
            {cluster.clusters.length} cluster(s), {cluster.totals.node_count} nodes, {number(cluster.totals.used_gb)} GB
            used
            {cluster.totals.pct_used !== null
              ? ` of ${number(cluster.totals.capacity_gb)} GB (${number(cluster.totals.pct_used, 1)} %)`
              : ''}
            ; read {time(cluster.generated_at)}
          </p>
          <BarChart
            title="storage used per node"
            unit="%"
            max={100}
            bars={cluster.nodes.map((node) => ({
              label: `${node.cluster_id} node ${node.id}`,
              value: node.pct_used ?? 0,
            }))}
          />
        </>
      ) : null}
      {storage ? (
        <>
          <h3>Largest tables</h3>
          <BarChart
            title="largest tables"
            unit="GB"
            bars={storage.tables.slice(0, 10).map((table) => ({
              label: `${table.schema}.${table.table_name} (${table.cluster_id})`,
              value: table.size_mb / 1024,
            }))}
          />
        </>
      ) : null}
      <h2>Queue waits</h2>
      <QueueWaitChart />
      {slow ? (
        <>
          <h2>
            Slow queries <span class="muted">over {slow.threshold_seconds} s</span>
          </h2>
          <DataTable
            testId="slow-queries"
            rows={slow.queries}
            empty="None running."
            columns={[
              { heading: 'Query', cell: (q) => q.query_id },
              { heading: 'Running', numeric: true, cell: (q) => `${number(q.exec_time_seconds)} s` },
              { heading: 'User', cell: (q) => q.user_name },
              { heading: 'Queue', cell: (q) => q.wlm_queue },
              { heading: 'Cluster', cell: (q) => q.cluster_id },
              { heading: 'SQL', cell: (q) => <code title={q.query_text}>{shorten(q.query_text)}</code> },
            ]}
          />
        </>
      ) : null}
      {spill ? (
        <>
          <h2>
            Disk spill <span class="muted">last 24 h</span>
          </h2>
          <DataTable
            rows={spill.queries}
            empty="No query spilled."
            columns={[
              { heading: 'Query', cell: (q) => q.query_id },
              { heading: 'Spilled', numeric: true, cell: (q) => `${number(q.spill_mb)} MB` },
              { heading: 'Took', numeric: true, cell: (q) => `${number(q.exec_time_seconds)} s` },
              { heading: 'User', cell: (q) => q.user_name },
              { heading: 'SQL', cell: (q) => <code title={q.query_text}>{shorten(q.query_text)}</code> },
            ]}
          />
        </>
      ) : null}
      {vacuum ? (
        <>
          <h2>Tables to vacuum</h2>
          <DataTable
            rows={vacuum.tables}
            empty="Every table is sorted and analysed."
            columns={[
              { heading: 'Table', cell: (t) => `${t.schema}.${t.table_name}` },
              { heading: 'Unsorted', numeric: true, cell: (t) => `${number(t.unsorted_pct, 1)} %` },
              { heading: 'Stats off', numeric: true, cell: (t) => `${number(t.stats_off, 1)} %` },
              { heading: 'Do', cell: (t) => t.recommendation },
              { heading: 'Cluster', cell: (t) => t.cluster_id },
            ]}
          />
        </>
      ) : null}
      {alerts ? (
        <>
          <h2>
            Table alerts <span class="muted">last 7 days</span>
          </h2>
          <DataTable
            rows={alerts.alerts}
            empty="No alert events."
            columns={[
              { heading: 'Table', cell: (a) => `${a.schema}.${a.table_name}` },
              { heading: 'Event', cell: (a) => a.event },
              { heading: 'Queries', numeric: true, cell: (a) => a.count },
              { heading: 'Last seen', cell: (a) => time(a.last_seen) },
              { heading: 'Remedy', cell: (a) => a.solution },
            ]}
          />
        </>
      ) : null}
    </section>
  );
}
