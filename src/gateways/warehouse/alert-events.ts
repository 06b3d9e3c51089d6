/**
 * The performance alert events Redshift raises on a query step, with the fix an operator should
 * apply. Provisioned clusters report event and solution in stl_alert_event_log; serverless
 * (sys_query_detail.alert) reports only the event, so the solution is looked up here. The
 * simulator raises the same events.
 */
export const ALERT_EVENTS = {
  missing_statistics: {
    event: 'Missing query planner statistics',
    solution: 'Run ANALYZE on the table so the planner works from current statistics.',
  },
  nested_loop: {
    event: 'Nested Loop Join in the query plan',
    solution:
      'Check the join predicates: a missing or non-equality join condition turns the join into a cross product.',
  },
  deleted_rows: {
    event: 'Scanned a large number of deleted rows',
    solution: 'Run VACUUM DELETE ONLY (or VACUUM FULL) to reclaim the blocks held by deleted rows.',
  },
  distributed_rows: {
    event: 'Distributed a large number of rows across the network',
    solution: 'Pick a distribution key that co-locates the rows this table is joined on.',
  },
  broadcast_rows: {
    event: 'Broadcasted a large number of rows across the network',
    solution: 'Give small dimension tables DISTSTYLE ALL, or distribute both sides of the join on the join key.',
  },
  selective_filter: {
    event: 'Very selective query filter',
    solution: 'Make the filtered column the leading sort key so zone maps can skip most blocks.',
  },
} as const;

export type AlertEventKind = keyof typeof ALERT_EVENTS;

const GENERIC_SOLUTION = 'Review the query plan (EXPLAIN) for the step that raised the alert.';

/** The fix for an event text as Redshift reports it (case and surrounding blanks ignored). */
export function solutionForEvent(eventText: string): string {
  const wanted = eventText.trim().toLowerCase();
  for (const { event, solution } of Object.values(ALERT_EVENTS)) {
    if (wanted.startsWith(event.toLowerCase())) return solution;
  }
  return GENERIC_SOLUTION;
}
