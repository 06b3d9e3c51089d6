/**
 * Catch-up throughput of the projections, in this process, without HTTP: the pieces the embedded
 * platform's projection host runs (the log reader, the decrypting store, the runner, the SQLite
 * read store) over a log of BENCH_EVENTS events (default 200,000) written as bench/startup-scale.ts
 * writes it. It measures two paths: a cold start (every projection from position 0, through the
 * live subscription) and a rebuild of the channels read model beside the live one. Run it under
 * `node --cpu-prof` to see where the time goes (bench/profile-breakdown.ts sorts the profile).
 * Prints JSON; writes nothing. Run: npx tsx bench/catch-up.ts
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { projectionsOf } from '../src/composition/read-models.js';
import { channelEventSecrets } from '../src/events/channel-secrets.js';
import { encryptingEventStore } from '../src/eventstore/encrypting.js';
import { openSqliteLogReader } from '../src/eventstore/sqlite-log-reader.js';
import { createProjectionRunner } from '../src/projection-runner/runner.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { secretBox } from '../src/secrets/secret-box.js';
import { generateChannelLog } from './support/channel-log.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);

async function copiedLog(source: string, dir: string) {
  copyFileSync(source, join(dir, 'events.db'));
  const reader = openSqliteLogReader({ filename: join(dir, 'events.db'), onCommit: () => () => undefined });
  const head = await reader.headPosition();
  const events = (await reader.readAll({ maxCount: 1 }))[0]!.position;
  await reader.close();
  return { head, events: Number(head - events + 1n) };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-catch-up-'));
  try {
    const box = secretBox(Buffer.alloc(32, 7));
    // BENCH_LOG: read a copy of a log written before (profiling the catch-up alone).
    const log = process.env.BENCH_LOG
      ? await copiedLog(process.env.BENCH_LOG, dir)
      : await generateChannelLog(join(dir, 'events.db'), EVENTS);
    const eventStore = encryptingEventStore(
      openSqliteLogReader({ filename: join(dir, 'events.db'), onCommit: () => () => undefined }),
      box,
      channelEventSecrets,
    );
    const readStore = openSqliteReadStore(join(dir, 'read-models.db'));
    const runner = createProjectionRunner({
      eventStore,
      readStore,
      projections: projectionsOf(box),
      logger: pino({ level: 'warn' }),
    });
    const load = loadavg().map((l) => +l.toFixed(2));
    let started = performance.now();
    let cpu = process.cpuUsage();
    await runner.start();
    while (!runner.status().every((s) => s.position >= log.head)) await new Promise((r) => setTimeout(r, 20));
    const cold = performance.now() - started;
    const coldCpu = process.cpuUsage(cpu);
    started = performance.now();
    cpu = process.cpuUsage();
    await runner.rebuild('channels');
    const rebuild = performance.now() - started;
    const rebuildCpu = process.cpuUsage(cpu);
    // On a shared machine the wall clock measures the neighbours too: events per CPU-second do not.
    const perCpuSecond = (usage: NodeJS.CpuUsage) => Math.round(log.events / ((usage.user + usage.system) / 1e6));
    await runner.stop();
    await readStore.close();
    await eventStore.close();
    console.log(
      JSON.stringify({
        events: log.events,
        cold_start_catch_up: {
          ms: Math.round(cold),
          events_per_s: Math.round(log.events / (cold / 1000)),
          events_per_cpu_s: perCpuSecond(coldCpu),
        },
        channels_rebuild: {
          ms: Math.round(rebuild),
          events_per_s: Math.round(log.events / (rebuild / 1000)),
          events_per_cpu_s: perCpuSecond(rebuildCpu),
        },
        load_average_1_5_15: { before: load, after: loadavg().map((l) => +l.toFixed(2)) },
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
