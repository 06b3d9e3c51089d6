/** Prometheus metrics of data sync (SPEC.md /metrics): durations, rows, outcomes, last success. */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { SyncJobId } from '../../events/sync-job.js';
import type { RunOutcome } from './run-sync-job.js';

export function syncMetrics(registry: Registry, now: () => Date) {
  const duration = new Histogram({
    name: 'sync_job_duration_seconds',
    help: 'Duration of sync runs',
    labelNames: ['job', 'outcome'],
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900],
    registers: [registry],
  });
  const rows = new Counter({
    name: 'sync_rows_total',
    help: 'Rows extracted from the warehouse and upserted into the relational store',
    labelNames: ['job', 'kind'],
    registers: [registry],
  });
  const runs = new Counter({
    name: 'sync_runs_total',
    help: 'Finished sync runs by outcome',
    labelNames: ['job', 'outcome'],
    registers: [registry],
  });
  const lastSuccess = new Gauge({
    name: 'sync_job_last_success_timestamp_seconds',
    help: 'When each job last succeeded (Unix seconds)',
    labelNames: ['job'],
    registers: [registry],
  });
  return (job: SyncJobId, outcome: RunOutcome) => {
    duration.observe({ job, outcome: outcome.status }, outcome.duration_ms / 1000);
    runs.inc({ job, outcome: outcome.status });
    if (outcome.status === 'succeeded') {
      rows.inc({ job, kind: 'extracted' }, outcome.rows_extracted);
      rows.inc({ job, kind: 'upserted' }, outcome.rows_upserted);
      lastSuccess.set({ job }, now().getTime() / 1000);
    }
  };
}
