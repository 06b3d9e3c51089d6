/**
 * Live incident streams at an organisation's scale (issue 39 item 4): BENCH_STREAMS (default 2,000)
 * streams of one tenant, five per person (BENCH_STREAMS / 5 people), on the in-process platform
 * (embedded stores). The streams are raw sockets in a worker thread, so the main thread's V8 heap
 * holds only the server's side of them. Figures:
 *   heap_per_stream_kib  V8 heap used after a full GC, (with streams − before) / streams;
 *   rss_per_stream_kib   the process's RSS likewise (server and the worker's sockets together: an upper bound);
 *   open_ms              until every stream answered 200;
 *   fan_out              one incident trigger: from the event's occurred_at to its arrival on each
 *                        stream (p50, p99, max), and the spread from the first stream to the last.
 * Writes bench/results/incident-streams.json (BENCH_OUT to change). Run: npx tsx bench/incident-streams.ts
 * BENCH_TREE=<dir> runs another checkout's platform (a baseline) with the same load.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { machine, percentile } from './support/machine.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const STREAMS = Number(process.env.BENCH_STREAMS ?? 2000);
const PER_PERSON = 5;
const TREE = process.env.BENCH_TREE ?? '..';
const KiB = 1024;

/** The client side: raw HTTP/1.1 GETs, each socket noting its status and when the trigger arrived. */
const CLIENTS = `
const { parentPort, workerData } = require('node:worker_threads');
const net = require('node:net');
const { port, tokens } = workerData;
const statuses = [];
const arrivals = [];
tokens.forEach((token, i) => {
  const socket = net.connect(port, '127.0.0.1');
  let head = '';
  socket.setEncoding('utf8');
  socket.write('GET /api/v1/incidents/stream HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nAuthorization: Bearer ' + token + '\\r\\n\\r\\n');
  socket.on('data', (text) => {
    if (statuses[i] === undefined) {
      head += text;
      const match = /^HTTP\\/1\\.1 (\\d+)/.exec(head);
      if (!match) return;
      statuses[i] = Number(match[1]);
      parentPort.postMessage({ answered: statuses.filter((s) => s !== undefined).length, status: statuses[i] });
    }
    if (arrivals[i] === undefined && text.includes('event: IncidentTriggered')) {
      arrivals[i] = Date.now();
      const got = arrivals.filter((a) => a !== undefined).length;
      if (got === tokens.length) parentPort.postMessage({ arrivals });
    }
  });
  socket.on('error', () => undefined);
});
`;

async function main() {
  const { startTestApp } = (await import(
    `${TREE}/test/support/test-app.ts`
  )) as typeof import('../test/support/test-app.js');
  const app = await startTestApp({
    env: {
      ALERT_EVALUATION_INTERVAL_SECONDS: '1',
      INCIDENT_STREAMS_PER_TENANT: String(STREAMS),
      INCIDENT_STREAMS_PER_USER: String(PER_PERSON),
    },
  });
  const tenant = app.newTenant();
  const tokens: string[] = [];
  for (let person = 0; person < STREAMS / PER_PERSON; person += 1) {
    const token = app.token({ ...tenant, userId: randomUUID() });
    for (let tab = 0; tab < PER_PERSON; tab += 1) tokens.push(token);
  }
  const port = Number(new URL(app.url).port);
  const load = [loadavg()[0]];

  await new Promise((resolve) => setTimeout(resolve, 2000));
  gc();
  const before = process.memoryUsage();
  if (process.env.BENCH_SNAPSHOTS) writeHeapSnapshot(`${process.env.BENCH_SNAPSHOTS}/before.heapsnapshot`);
  const opened = Date.now();
  const worker = new Worker(CLIENTS, { eval: true, workerData: { port, tokens } });
  const statuses = new Map<number, number>();
  let arrivals: number[] = [];
  const arrived = new Promise<void>((resolve) =>
    worker.on('message', (message: { status?: number; arrivals?: number[] }) => {
      if (message.status !== undefined) statuses.set(message.status, (statuses.get(message.status) ?? 0) + 1);
      if (message.arrivals) {
        arrivals = message.arrivals;
        resolve();
      }
    }),
  );
  while ([...statuses.values()].reduce((a, b) => a + b, 0) < STREAMS) await new Promise((r) => setTimeout(r, 50));
  const openMs = Date.now() - opened;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  gc();
  const after = process.memoryUsage();
  if (process.env.BENCH_SNAPSHOTS) writeHeapSnapshot(`${process.env.BENCH_SNAPSHOTS}/after.heapsnapshot`);

  // One incident: a rule over a pinned metric that triggers on its first evaluation.
  const caller = { ...tenant, userId: randomUUID() };
  const post = async (path: string, body: unknown) => (await app.request('POST', path, { caller, body })).body.data;
  const channel = await post('/notification-channels', {
    name: 'ops',
    type: 'chat',
    config: { webhook_url: 'https://chat.example/hook', channel_name: '#ops' },
  });
  const policy = await post('/api/v1/escalation-policies', {
    name: 'DBA',
    stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.id }] }],
  });
  await post('/api/v1/simulator/metrics', { metric: 'queue_time_seconds', value: 70, duration_seconds: 3600 });
  await post('/api/v1/alert-rules', {
    name: 'Queue wait',
    metric: 'queue_time_seconds',
    condition: 'gt',
    threshold: 30,
    evaluation_window_minutes: 0,
    severity: 'high',
    escalation_policy_id: policy.id,
  });
  const statusesOk = statuses.get(200) === STREAMS;
  if (statusesOk) await Promise.race([arrived, new Promise((resolve) => setTimeout(resolve, 60_000))]);
  load.push(loadavg()[0]);
  const [incident] = (await app.request('GET', '/api/v1/incidents', { caller })).body.data;
  const occurredAt = Date.parse(incident.triggered_at);
  const latencies = arrivals.map((at) => at - occurredAt).sort((a, b) => a - b);
  const result = {
    benchmark: 'incident-streams',
    measured_at: new Date().toISOString(),
    machine: machine(),
    tree: TREE,
    load_average_1m: load,
    streams: STREAMS,
    people: STREAMS / PER_PERSON,
    statuses: Object.fromEntries(statuses),
    open_ms: openMs,
    heap_per_stream_kib: +((after.heapUsed - before.heapUsed) / STREAMS / KiB).toFixed(2),
    rss_per_stream_kib: +((after.rss - before.rss) / STREAMS / KiB).toFixed(2),
    heap_used_mib: {
      before: +(before.heapUsed / 2 ** 20).toFixed(1),
      with_streams: +(after.heapUsed / 2 ** 20).toFixed(1),
    },
    fan_out:
      latencies.length === STREAMS
        ? {
            received: latencies.length,
            p50_ms: percentile(latencies, 50),
            p99_ms: percentile(latencies, 99),
            max_ms: latencies.at(-1),
            first_to_last_ms: Math.max(...arrivals) - Math.min(...arrivals),
          }
        : { received: latencies.length },
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(process.env.BENCH_OUT ?? 'bench/results/incident-streams.json', `${JSON.stringify(result, null, 2)}\n`);
  await worker.terminate();
  await app.close();
}

await main();
