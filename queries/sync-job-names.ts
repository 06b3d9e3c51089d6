import type { SyncJobId } from '../src/events/sync-job.js';

/** Display names of the built-in jobs. */
export const SYNC_JOB_DOC_NAMES: Record<SyncJobId, string> = {
  query_history: 'Query history',
  table_storage: 'Table storage',
  cluster_metrics: 'Cluster metrics',
  wlm_queue_stats: 'WLM queue statistics',
  alert_events: 'Alert events',
};
