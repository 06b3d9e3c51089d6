/**
 * Append → visible: from an append's acknowledgement until the projections have applied it, with
 * the runner the platform uses on the embedded stores (`thread`: the projections on the log's
 * writer thread) or the in-process runner it replaced (`in_process`). `root` is the checkout whose
 * modules are measured (this one, or BENCH_BASELINE_DIR's for a before/after in the same run).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { percentile } from './machine.js';

type Modules = typeof import('../../projections/channels.js') &
  typeof import('../../src/auth/iam-change-stamps.js') &
  typeof import('../../src/composition/projection-thread.js') &
  typeof import('../../src/secrets/secret-box.js') &
  typeof import('../../src/eventstore/sqlite.js') &
  typeof import('../../src/projection-runner/runner.js') &
  typeof import('../../src/readstore/sqlite.js');

const MODULES = [
  'projections/channels.ts',
  'src/auth/iam-change-stamps.ts',
  'src/composition/projection-thread.ts',
  'src/secrets/secret-box.ts',
  'src/eventstore/sqlite.ts',
  'src/projection-runner/runner.ts',
  'src/readstore/sqlite.ts',
];

async function modulesOf(root: string): Promise<Modules> {
  const loaded = await Promise.all(MODULES.map((path) => import(pathToFileURL(join(resolve(root), path)).href)));
  return Object.assign({}, ...loaded) as Modules;
}

export interface LagFigures {
  appends: number;
  concurrent_writers: number;
  p50_ms: number;
  p99_ms: number;
}

/** The first WARM_UP appends are not measured: JIT, the first statements, threads starting. */
const WARM_UP = 500;
const MEASURED = 5000;
const WRITERS = 20;

export async function projectionLag(root: string, kind: 'thread' | 'in_process'): Promise<LagFigures> {
  const m = await modulesOf(root);
  const dir = mkdtempSync(join(tmpdir(), 'bench-lag-'));
  const key = randomBytes(32);
  const files = { eventsFile: join(dir, 'events.db'), readModelsFile: join(dir, 'read.db') };
  const eventStore = m.openSqliteEventStore({ filename: files.eventsFile });
  const readStore = m.openSqliteReadStore(files.readModelsFile);
  const logger = pino({ level: 'silent' });
  const channels = m.channelsProjection(m.secretBox(key));
  const runner =
    kind === 'thread'
      ? m.projectionThread({
          ...files,
          secrets: { key, previousKeys: [] },
          secretsKeyFile: join(dir, 'secrets.key'),
          projections: [channels],
          iamProjections: new Set(),
          stamps: m.iamChangeStamps(),
          logLevel: 'silent',
          logger,
        })
      : m.createProjectionRunner({ eventStore, readStore, projections: [channels], logger });
  await runner.start();
  const lags: number[] = [];
  const metadata = {
    tenantId: '00000000-0000-4000-8000-000000000001',
    actor: 'bench',
    correlationId: 'c',
    causationId: 'c',
    occurredAt: new Date().toISOString(),
  };
  let n = 0;
  const writer = async () => {
    while (n < MEASURED + WARM_UP) {
      const measured = n >= WARM_UP;
      const id = `00000000-0000-4000-8000-${String(n++).padStart(12, '0')}`;
      const { position } = await eventStore.append(`channel-${id}`, [
        {
          type: 'ChannelCreated',
          data: { channelId: id, name: 'x', type: 'email', config: { recipients: ['a@b.co'], subject_template: 's' } },
          metadata,
        },
      ]);
      const acknowledged = performance.now();
      await runner.waitFor(position, 10_000);
      if (measured) lags.push(performance.now() - acknowledged);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  await runner.stop();
  await eventStore.close();
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
  lags.sort((a, b) => a - b);
  return {
    appends: lags.length,
    concurrent_writers: WRITERS,
    p50_ms: +percentile(lags, 50).toFixed(2),
    p99_ms: +percentile(lags, 99).toFixed(2),
  };
}
