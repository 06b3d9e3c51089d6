/**
 * Reads a Redshift EXPLAIN plan for the steps that usually make a query slow, so the model gets
 * the judgement with the plan. Pure: the same notes for the real plan and the simulated one.
 */

const NOTES: readonly [RegExp, string][] = [
  [
    /DS_BCAST_INNER/,
    'DS_BCAST_INNER: the inner table of a join is broadcast to every node; fine for a small table, costly for a large one (consider DISTSTYLE ALL for small dimensions, or a common distribution key).',
  ],
  [
    /DS_DIST_BOTH/,
    'DS_DIST_BOTH: both sides of a join are redistributed; distributing both tables on the join key avoids it.',
  ],
  [
    /DS_DIST_INNER/,
    'DS_DIST_INNER: the inner table is redistributed for the join; distributing it on the join key avoids it.',
  ],
  [/DS_DIST_ALL_INNER/, 'DS_DIST_ALL_INNER: the whole inner table is sent to one slice; the join runs serially.'],
  [
    /Nested Loop/i,
    'Nested Loop join: usually a missing or non-equality join condition (a cross product); check the join predicates.',
  ],
  [
    /XN Seq Scan on [^(]*\(cost=[^)]*rows=(\d{9,})/,
    'A scan reads a billion rows or more: a filter on the leading sort key would let zone maps skip blocks.',
  ],
];

export function planNotes(plan: readonly string[]): string[] {
  const text = plan.join('\n');
  const notes = NOTES.filter(([pattern]) => pattern.test(text)).map(([, note]) => note);
  return notes.length > 0 ? notes : ['No broadcast, redistribution or nested loop in the plan.'];
}
