/** What known callers send on their own, read as a run's outcome (commands/heartbeat-ping-senders.ts), table-driven. */
import test from 'ava';
import { senderPing } from '../commands/heartbeat-ping-senders.js';

const redshift = (state: string) => ({
  version: '0',
  'detail-type': 'Redshift Data Statement Status Change',
  source: 'aws.redshift-data',
  detail: { statementName: 'nightly.rollup', state, redshiftQueryId: -1 },
});
const dbt = (eventType: string, runStatus: string, runStatusMessage = '') => ({
  accountId: 1,
  eventType,
  data: { jobId: '42', jobName: 'Nightly models', runId: '7001', runStatus, runStatusMessage },
});

const table: [string, Record<string, unknown>, ReturnType<typeof senderPing>][] = [
  ['Redshift FINISHED', redshift('FINISHED'), { status: 'success', message: 'Redshift: nightly.rollup FINISHED' }],
  ['Redshift FAILED', redshift('FAILED'), { status: 'fail', message: 'Redshift: nightly.rollup FAILED' }],
  ['Redshift ABORTED', redshift('ABORTED'), { status: 'fail', message: 'Redshift: nightly.rollup ABORTED' }],
  [
    'dbt Cloud completed, Success',
    dbt('job.run.completed', 'Success'),
    { status: 'success', message: 'dbt Cloud: Nightly models run 7001 Success' },
  ],
  [
    'dbt Cloud completed, Errored (completed fires for failed runs too)',
    dbt('job.run.completed', 'Errored', 'Database Error in model orders'),
    { status: 'fail', message: 'dbt Cloud: Nightly models run 7001 Errored: Database Error in model orders' },
  ],
  [
    'dbt Cloud errored',
    dbt('job.run.errored', 'Errored'),
    { status: 'fail', message: 'dbt Cloud: Nightly models run 7001 Errored' },
  ],
  ['dbt Cloud started: not an outcome', dbt('job.run.started', 'Running'), null],
  ['a plain JSON body', { status: 'fail', message: 'x' }, null],
  [
    'a body of strange shapes',
    { 'detail-type': 'Redshift Data Statement Status Change', detail: 3 },
    { status: 'fail', message: 'Redshift: a statement UNKNOWN' },
  ],
];

for (const [name, body, expected] of table) test(name, (t) => t.deepEqual(senderPing(body), expected));
