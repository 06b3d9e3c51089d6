/**
 * Inbound alerts (issue 40): sustained PagerDuty Events API v2 triggers at `POST /v2/enqueue` on
 * one platform process (`npm start`'s compiled entry) with the embedded stores. 90 % of the
 * triggers repeat a dedup key that is open (they add to its incident's alert_count and page
 * nobody), 10 % bring a new key (each opens an incident that pages the integration's policy: one
 * stage, a webhook channel to a receiver on loopback in this process).
 *
 * Two phases, one after the other on the same process:
 *   paced    BENCH_RATE triggers a second (default 2,000) for BENCH_SECONDS (default 30), sent on
 *            schedule whatever the answers (open loop, at most BENCH_MAX_IN_FLIGHT in flight); a
 *            202's latency counts from the instant it was due, so a server that falls behind shows
 *            it in the latency instead of sending less (no coordinated omission);
 *   capacity BENCH_CONNECTIONS (default 32) senders one after the other for BENCH_CAPACITY_SECONDS
 *            (default 10): the most the process accepts on this machine.
 * The event → first page time of a new key: from sending its first trigger to the receiver getting
 * the incident.triggered delivery (the title carries the key). The platform's CPU seconds come
 * from /proc; the machine's load average is taken before and after (other work shares it).
 *
 * BENCH_CPU_PROF=<dir>: the platform runs with `--cpu-prof` into that folder (stopped with SIGINT).
 * Writes bench/results/ingest.json. Run: npx tsx bench/ingest.ts
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { devToken, freePort, startPlatformProcess } from '../test/support/platform-process.js';
import { machine, percentile } from './support/machine.js';

const RATE = Number(process.env.BENCH_RATE ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const MAX_IN_FLIGHT = Number(process.env.BENCH_MAX_IN_FLIGHT ?? 256);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const CAPACITY_SECONDS = Number(process.env.BENCH_CAPACITY_SECONDS ?? 10);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3);
/** The paced phase's latencies are also summarised per window of this many seconds. */
const WINDOW_SECONDS = 5;
const NEW_KEY_SHARE = 0.1;
const SEED_KEYS = 100;
const CPU_PROF = process.env.BENCH_CPU_PROF;

/** The platform's user + system CPU seconds so far (/proc/<pid>/stat, in clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Loopback receiver of the pages: the instant each key's first incident.triggered arrived. */
async function pageReceiver() {
  const firstPage = new Map<string, number>();
  let pages = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (body.event === 'incident.triggered') {
        pages += 1;
        const key = /^bench (\S+)$/.exec(body.incident.title)?.[1];
        if (key !== undefined && !firstPage.has(key)) firstPage.set(key, at);
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    firstPage,
    pages: () => pages,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function post(agent: http.Agent, url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50_ms: +percentile(sorted, 50).toFixed(1),
    p99_ms: +percentile(sorted, 99).toFixed(1),
    max_ms: +(sorted.at(-1) ?? Number.NaN).toFixed(1),
  };
};

async function main() {
  const receiver = await pageReceiver();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-ingest-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const profileFlags = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [];
  const platform = await startPlatformProcess(
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      BASE_URL: url,
      LOG_LEVEL: 'warn',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      SYNC_SCHEDULER: 'off',
      // One key takes every trigger of the run: PagerDuty's 120 a minute would refuse nearly all.
      INTEGRATION_EVENTS_PER_KEY_PER_MINUTE: '1000000',
    },
    120_000,
    ['--max-semi-space-size=64', ...profileFlags, 'src/start.mjs'],
  );
  const pid = platform.child.pid!;
  const token = await devToken(url, dataDir);
  const api = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { data: Record<string, string> };
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer.data;
  };
  const channel = await api('/api/v1/notification-channels', {
    name: 'bench pages',
    type: 'webhook',
    config: { url: `${receiver.url}/page`, method: 'POST', headers: {} },
  });
  const policy = await api('/api/v1/escalation-policies', {
    name: 'bench',
    stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.id }] }],
  });
  const integration = await api('/api/v1/integrations', {
    name: 'bench',
    kind: 'events_v2',
    escalation_policy_id: policy.id,
  });
  const enqueueUrl = `${url}/v2/enqueue`;
  const statuses: Record<string, number> = {};
  const count = (status: number) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(MAX_IN_FLIGHT, CONNECTIONS) });

  const openKeys: string[] = [];
  const firstSent = new Map<string, number>();
  let keys = 0;
  const nextKey = () => {
    if (openKeys.length >= SEED_KEYS && Math.random() >= NEW_KEY_SHARE)
      return { key: openKeys[Math.floor(Math.random() * openKeys.length)]!, isNew: false };
    const key = `k${keys++}`;
    openKeys.push(key);
    return { key, isNew: true };
  };
  const trigger = async (key: string, isNew: boolean, dueAt: number) => {
    if (isNew) firstSent.set(key, performance.now());
    const body = JSON.stringify({
      routing_key: integration.routing_key,
      event_action: 'trigger',
      dedup_key: key,
      payload: { summary: `bench ${key}`, source: 'bench', severity: 'error' },
    });
    const answer = await post(agent, enqueueUrl, body);
    return { status: answer.status, ms: performance.now() - dueAt };
  };
  // The seed keys open before either phase, then a warm-up (the first requests compile the path).
  await Promise.all(Array.from({ length: SEED_KEYS }, () => nextKey()).map((k) => trigger(k.key, true, 0)));
  const closedLoop = async (seconds: number, latencies: number[]) => {
    const end = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < end) {
          const { key, isNew } = nextKey();
          const { status, ms } = await trigger(key, isNew, performance.now()).catch(() => ({ status: 0, ms: 0 }));
          count(status);
          if (status === 202) latencies.push(ms);
        }
      }),
    );
  };
  await closedLoop(WARM_UP_SECONDS, []);
  firstSent.clear();

  const loadBefore = loadavg();

  // Paced: one trigger due every 1/RATE s; a tick sends what has come due.
  const pacedLatencies: number[] = [];
  const cpuPacedBefore = cpuSecondsOf(pid);
  const generatorCpuBefore = process.cpuUsage();
  const pacedStarted = performance.now();
  // Where the p99 comes from: a new key waits for its incident's projection (read your writes), a
  // repeat does not; and whether latency grows as the run goes on (a backlog) or spikes.
  const pacedNewKeyLatencies: number[] = [];
  const pacedRepeatLatencies: number[] = [];
  const pacedByWindow: number[][] = [];
  let sent = 0;
  let inFlight = 0;
  let skipped = 0;
  const pending = new Set<Promise<void>>();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = performance.now() - pacedStarted;
      const due = Math.min(Math.floor((elapsed / 1000) * RATE), RATE * SECONDS);
      while (sent < due) {
        const dueAt = pacedStarted + (sent / RATE) * 1000;
        sent += 1;
        if (inFlight >= MAX_IN_FLIGHT) {
          skipped += 1;
          continue;
        }
        inFlight += 1;
        const { key, isNew } = nextKey();
        const one = trigger(key, isNew, dueAt).then(
          ({ status, ms }) => {
            count(status);
            if (status !== 202) return;
            pacedLatencies.push(ms);
            (isNew ? pacedNewKeyLatencies : pacedRepeatLatencies).push(ms);
            const window = Math.floor((dueAt - pacedStarted) / (WINDOW_SECONDS * 1000));
            (pacedByWindow[window] ??= []).push(ms);
          },
          () => void count(0),
        );
        const tracked = one.finally(() => {
          inFlight -= 1;
          pending.delete(tracked);
        });
        pending.add(tracked);
      }
      if (sent >= RATE * SECONDS) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await Promise.all(pending);
  const pacedSeconds = (performance.now() - pacedStarted) / 1000;
  const cpuPaced = cpuSecondsOf(pid) - cpuPacedBefore;
  const generatorCpu = process.cpuUsage(generatorCpuBefore);
  const pacedAccepted = pacedLatencies.length;
  const newKeysPaced = [...firstSent.keys()];

  // The pages of the paced phase's new keys, before the capacity phase loads the machine again.
  const pageDeadline = performance.now() + 30_000;
  while (newKeysPaced.some((key) => !receiver.firstPage.has(key)) && performance.now() < pageDeadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const firstPageMs = newKeysPaced.flatMap((key) => {
    const paged = receiver.firstPage.get(key);
    return paged === undefined ? [] : [paged - firstSent.get(key)!];
  });

  // Capacity: CONNECTIONS senders, each sending its next trigger when the last is answered.
  const capacityLatencies: number[] = [];
  const cpuCapacityBefore = cpuSecondsOf(pid);
  const capacityStarted = performance.now();
  await closedLoop(CAPACITY_SECONDS, capacityLatencies);
  const capacitySeconds = (performance.now() - capacityStarted) / 1000;
  const cpuCapacity = cpuSecondsOf(pid) - cpuCapacityBefore;
  const loadAfter = loadavg();
  const rssMiB = Math.round((Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096) / 2 ** 20);

  platform.child.kill(CPU_PROF ? 'SIGINT' : 'SIGTERM');
  await platform.exited;
  agent.destroy();
  await receiver.stop();
  rmSync(dataDir, { recursive: true, force: true });

  const paced = summary(pacedLatencies);
  const pages = summary(firstPageMs);
  const results = {
    benchmark: 'ingest',
    date: new Date().toISOString(),
    machine: machine(),
    settings: {
      entry: 'src/start.mjs (compiled), embedded stores, one process',
      new_key_share: NEW_KEY_SHARE,
      seed_keys: SEED_KEYS,
      paced: { rate_per_second: RATE, seconds: SECONDS, max_in_flight: MAX_IN_FLIGHT },
      capacity: { connections: CONNECTIONS, seconds: CAPACITY_SECONDS },
      warm_up_seconds: WARM_UP_SECONDS,
      page_target: 'one-stage policy, webhook channel to a loopback receiver in the load generator',
      load_average_before: loadBefore.map((l) => +l.toFixed(2)),
      load_average_after: loadAfter.map((l) => +l.toFixed(2)),
    },
    paced: {
      offered_per_second: RATE,
      accepted_per_second: Math.round(pacedAccepted / pacedSeconds),
      accepted: pacedAccepted,
      not_sent_over_in_flight_cap: skipped,
      latency_of_202: paced,
      latency_of_202_new_keys: summary(pacedNewKeyLatencies),
      latency_of_202_repeats: summary(pacedRepeatLatencies),
      latency_of_202_per_window: pacedByWindow.map((latencies, index) => ({
        from_second: index * WINDOW_SECONDS,
        ...summary(latencies ?? []),
      })),
      platform_cpu_seconds: +cpuPaced.toFixed(1),
      platform_cpu_micros_per_event: Math.round((cpuPaced * 1e6) / Math.max(1, pacedAccepted)),
      // The senders and the page receiver, on the same 2 cores.
      load_generator_cpu_seconds: +((generatorCpu.user + generatorCpu.system) / 1e6).toFixed(1),
      new_keys: newKeysPaced.length,
      new_keys_paged: firstPageMs.length,
      event_to_first_page: pages,
    },
    capacity: {
      accepted_per_second: Math.round(capacityLatencies.length / capacitySeconds),
      latency_of_202: summary(capacityLatencies),
      platform_cpu_seconds: +cpuCapacity.toFixed(1),
      platform_cpu_micros_per_event: Math.round((cpuCapacity * 1e6) / Math.max(1, capacityLatencies.length)),
    },
    statuses,
    pages_received: receiver.pages(),
    keys_opened: keys,
    platform_rss_mib: rssMiB,
    targets: {
      accepted_per_second_at_least_2000: Math.max(pacedAccepted / pacedSeconds, 0) >= 2000 * 0.99,
      p99_202_under_50_ms: paced.p99_ms < 50,
      first_page_p99_under_1_s: pages.p99_ms < 1000 && firstPageMs.length === newKeysPaced.length,
    },
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/ingest.json', `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
