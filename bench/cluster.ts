/**
 * The cluster on the protocol stand-ins (or real servers: EVENTSTORE_URL and MONGODB_URL), through
 * test/support/cluster-harness.ts: alert-to-page latency on one instance and on three, and the
 * takeover after a kill -9. Writes bench/results/cluster.json.
 *
 * Breach visible: a rule is created whose threshold is already breached (`gte 0`, window 0), so the
 * breach is visible to the platform the moment the rule's creation is answered (no simulator pin:
 * a rule's creation is one clear moment, a pin's is its own round trip). Latency = that moment → the receiver
 * accepts stage 1, which includes waiting for the next tick (uniform over the evaluation interval);
 * "triggered → page" leaves the tick out. Rules are created one at a time, spread over the
 * interval, so the samples do not share a tick.
 *
 * Takeover: stage 2 (one minute after stage 1) of every incident falls due shortly after one
 * instance is killed with -9; the takeover time is the kill → the last stage 2 received (every
 * stage the dead instance owned was fired by a survivor), and membership's own view (survivors'
 * `cluster_members` reaching 2).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { chooseClusterBackends, startClusterBackends } from '../test/support/cluster-backends.js';
import { startCluster, type Cluster } from '../test/support/cluster-harness.js';
import {
  breachingRules,
  createPagingSetup,
  createRules,
  pagesOf,
  quietRules,
  stagePages,
  type PagingSetup,
} from '../test/support/cluster-workload.js';
import type { Caller } from '../test/support/test-app.js';
import { waitFor } from '../test/support/wait-for.js';
import { machine, percentile } from './support/machine.js';

const INTERVAL_SECONDS = 5;
const QUIET_RULES = Number(process.env.BENCH_QUIET_RULES ?? 300);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20);
const STAGE_2_DELAY_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return {
    samples: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? NaN),
  };
};

async function withCluster<T>(
  size: number,
  run: (cluster: Cluster, caller: Caller, paging: PagingSetup) => Promise<T>,
): Promise<T> {
  const choice = chooseClusterBackends();
  if (choice.mode === 'skip') throw new Error(choice.reason);
  const backends = await startClusterBackends(choice);
  const cluster = await startCluster({ size, backends, intervalSeconds: INTERVAL_SECONDS }).catch(async (error) => {
    await backends.stop();
    throw error;
  });
  const caller = cluster.newTenant();
  const paging = await createPagingSetup(cluster, caller);
  try {
    await createRules(
      cluster,
      caller,
      quietRules(QUIET_RULES, paging.policyId),
      cluster.instances.map((i) => i.index),
      32,
    );
    return await run(cluster, caller, paging);
  } finally {
    await cluster.stop();
    await paging.receiver.stop();
    await backends.stop();
  }
}

/** Breach visible → stage 1 received, and incident triggered → stage 1 received, in seconds. */
async function alertToPage(cluster: Cluster, caller: Caller, paging: PagingSetup, prefix: string) {
  const visibleAt = new Map<string, number>();
  const bodies = breachingRules(SAMPLES, paging.policyId, prefix);
  for (const [n, body] of bodies.entries()) {
    const [id] = await createRules(cluster, caller, [body], [n % cluster.instances.length], 1);
    visibleAt.set(id!, Date.now());
    await sleep(((INTERVAL_SECONDS * 1000) / 4) * (1 + Math.random()));
  }
  const incidents = async () =>
    (
      (await cluster.api(0, 'GET', '/api/v1/incidents?limit=200', { caller })).body.data as {
        id: string;
        rule_id: string;
        triggered_at: string;
      }[]
    ).filter((i) => visibleAt.has(i.rule_id));
  await waitFor(
    async () => {
      const open = await incidents();
      return open.length === SAMPLES && open.every((i) => stagePages(pagesOf(paging.receiver), i.id, 1).length > 0);
    },
    { timeoutMs: 120_000, intervalMs: 250, message: 'stage 1 of every sample' },
  );
  const pages = pagesOf(paging.receiver);
  const rows = (await incidents()).map((i) => {
    const page = stagePages(pages, i.id, 1)[0]!;
    return {
      visibleToPage: (page.receivedAt - visibleAt.get(i.rule_id)!) / 1000,
      triggeredToPage: (page.receivedAt - Date.parse(i.triggered_at)) / 1000,
    };
  });
  return {
    breach_visible_to_page_seconds: summary(rows.map((r) => r.visibleToPage)),
    triggered_to_page_seconds: summary(rows.map((r) => r.triggeredToPage)),
  };
}

async function takeover(cluster: Cluster, caller: Caller, paging: PagingSetup) {
  const ids = await createRules(cluster, caller, breachingRules(SAMPLES, paging.policyId, 'takeover'), [0, 1, 2], 8);
  const incidents = async () =>
    (
      (await cluster.api(0, 'GET', '/api/v1/incidents?limit=200', { caller })).body.data as {
        id: string;
        rule_id: string;
        triggered_at: string;
      }[]
    ).filter((i) => ids.includes(i.rule_id));
  await waitFor(
    async () =>
      (await incidents()).length === SAMPLES &&
      (await incidents()).every((i) => stagePages(pagesOf(paging.receiver), i.id, 1).length > 0),
    { timeoutMs: 60_000, intervalMs: 250, message: 'stage 1 of every incident' },
  );
  const open = await incidents();
  const dueAt = new Map(open.map((i) => [i.id, Date.parse(i.triggered_at) + STAGE_2_DELAY_MS]));
  const firstDue = Math.min(...dueAt.values());
  // Killed 2 s before the first stage 2 falls due: whatever the dead instance owned is due during the takeover.
  await sleep(Math.max(0, firstDue - 2000 - Date.now()));
  const owned = await Promise.all(
    [0, 1, 2].map(async (i) => (await cluster.metrics(i)).sum('cluster_owned_work', { kind: 'incidents' })),
  );
  const victim = owned.some((n) => n > 0) ? owned.indexOf(Math.max(...owned)) : 1;
  const killedAt = Date.now();
  await cluster.kill9(victim);
  const survivors = [0, 1, 2].filter((i) => i !== victim);
  let membersAt: number | null = null;
  await waitFor(
    async () => {
      if (membersAt === null) {
        const metrics = await Promise.all(survivors.map((i) => cluster.metrics(i)));
        if (metrics.every((m) => m.has('cluster_members') && m.sum('cluster_members') === 2)) membersAt = Date.now();
      }
      return open.every((i) => stagePages(pagesOf(paging.receiver), i.id, 2).length > 0);
    },
    { timeoutMs: 120_000, intervalMs: 100, message: 'stage 2 of every incident' },
  );
  const pages = pagesOf(paging.receiver);
  const stage2 = open.map((i) => stagePages(pages, i.id, 2));
  const lastReceived = Math.max(...stage2.map((p) => p[0]!.receivedAt));
  return {
    victim,
    incidents_owned_by_victim: owned[victim] ?? null,
    kill_to_last_stage_2_seconds: (lastReceived - killedAt) / 1000,
    kill_to_members_2_seconds: membersAt === null ? null : (membersAt - killedAt) / 1000,
    stage_2_lateness_seconds: summary(open.map((i, n) => (stage2[n]![0]!.receivedAt - dueAt.get(i.id)!) / 1000)),
    stage_2_pages_doubled: stage2.filter((p) => p.length > 1).length,
  };
}

async function main() {
  const loadBefore = loadavg()[0];
  const one = await withCluster(1, (cluster, caller, paging) => alertToPage(cluster, caller, paging, 'one'));
  console.log('one instance', JSON.stringify(one));
  const three = await withCluster(3, async (cluster, caller, paging) => {
    const latency = await alertToPage(cluster, caller, paging, 'three');
    console.log('three instances', JSON.stringify(latency));
    const taken = await takeover(cluster, caller, paging);
    console.log('takeover', JSON.stringify(taken));
    return { ...latency, takeover: taken };
  });
  const result = {
    benchmark: 'cluster',
    date: new Date().toISOString(),
    machine: machine(),
    load_average_1m: { before: loadBefore, after: loadavg()[0] },
    settings: {
      backends: chooseClusterBackends().mode,
      evaluation_interval_seconds: INTERVAL_SECONDS,
      quiet_rules: QUIET_RULES,
      samples: SAMPLES,
      breach:
        'a rule created with its threshold already breached (gte 0, window 0); visible when its creation is answered',
      delivery: 'signed webhook to a loopback receiver, stage 2 one minute after stage 1',
    },
    one_instance: one,
    three_instances: three,
  };
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/cluster.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
