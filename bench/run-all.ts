/** `npm run bench`: every benchmark in turn, each writing its JSON under bench/results/. */
import { spawnSync } from 'node:child_process';

const benchmarks = [
  'bench/commands.ts',
  'bench/warehouse.ts',
  'bench/evaluator.ts',
  'bench/evaluator-windows.ts',
  'bench/heartbeats.ts',
  'bench/ingest.ts',
  'bench/schedules.ts',
  'bench/delivery.ts',
  'bench/escalation.ts',
  'bench/sync.ts',
  'bench/assistant.ts',
  'bench/dashboard-list.ts',
  'bench/backtest.ts',
  'bench/analytics.ts',
  'bench/heavy-requests.ts',
  'bench/incident-streams.ts',
  'bench/startup.ts',
  'bench/scrub.ts',
];
for (const script of benchmarks) {
  console.log(`\n== ${script}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`${script} failed with ${run.status}`);
    process.exit(run.status ?? 1);
  }
}
