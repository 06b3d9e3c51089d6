/**
 * Outbound delivery: signed webhook deliveries per second to a local receiver, and the latency the
 * guarded client adds over a plain http.request in the same run. Loopback only (the client runs
 * with allowPrivateNetworks, as a test would), a bounded number of requests, stops by itself.
 * The receiver runs in a child process (this file with --receiver) so that it does not share the
 * client's event loop. Writes bench/results/delivery.json. Run: npx tsx bench/delivery.ts
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { createGuardedClient } from '../src/gateways/http/guarded-client.js';
import { webhookAdapter } from '../src/gateways/notify/webhook-adapter.js';
import { generateSigningSecret, verifyWebhookSignature } from '../src/gateways/notify/webhook-signature.js';
import type { AlertMessage } from '../src/gateways/notify/port.js';
import { machine, percentile } from './support/machine.js';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const GUARD_SAMPLES = Number(process.env.BENCH_GUARD_SAMPLES ?? 2000);
const WARM_UP = 200;
const ROUNDS = 5;

/** Child mode: a webhook receiver that verifies every signature, on loopback. */
async function receiver(secret: string) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const header = req.headers['x-signature'];
      if (header === undefined) return void res.writeHead(204).end(); // the unsigned guard comparison
      const check = verifyWebhookSignature(secret, String(header), body, Date.now() / 1000, 300);
      res.writeHead(check.valid ? 204 : 401).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
  process.on('SIGTERM', () => process.exit(0));
}

function startReceiver(secret: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/delivery.ts', '--receiver'], {
    env: { ...process.env, BENCH_SECRET: secret },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
  });
  return { child, port };
}

const message = (i: number): AlertMessage => ({
  incidentId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  status: 'triggered',
  severity: 'high',
  source: 'rule',
  title: 'Queue time high',
  detail: null,
  ruleName: 'Queue time high',
  metric: 'queue_time_seconds',
  currentValue: 42,
  threshold: 30,
  condition: 'gt',
  cluster: 'bench-cluster',
  incidentUrl: `http://localhost/incidents/${i}`,
  occurredAt: new Date().toISOString(),
});

const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50_ms: +percentile(sorted, 50).toFixed(3), p99_ms: +percentile(sorted, 99).toFixed(3) };
};

/** `count` calls of `one` with `concurrency` in flight; their latencies and the wall time. */
async function load(count: number, one: (i: number) => Promise<boolean>) {
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++;
        const begun = performance.now();
        if (!(await one(i))) failed += 1;
        latencies.push(performance.now() - begun);
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  return { seconds: (performance.now() - started) / 1000, latencies, failed, cpuMicros: cpu.user + cpu.system };
}

/**
 * Signed deliveries through the webhook adapter against plain unsigned http.request posts of the
 * same size (no guard, kept-alive agent): the ceiling on this machine. Run in alternating rounds
 * so that changes in the machine's load hit both alike.
 */
async function throughput(port: number, secret: string) {
  const client = createGuardedClient({ allowPrivateNetworks: true });
  const adapter = webhookAdapter(client);
  const target = {
    medium: 'webhook' as const,
    channelId: 'bench',
    config: { url: `http://localhost:${port}/hook`, method: 'POST' as const, headers: {} },
    signingSecret: secret,
  };
  const agent = new http.Agent({ keepAlive: true });
  const plainBody = JSON.stringify({ version: 1, padding: 'x'.repeat(400) });
  const signedOne = async (i: number) => (await adapter.deliver(target, message(i), `bench-${i}`)).ok;
  const plainOne = async () => (await plainPost(`http://localhost:${port}/plain`, plainBody, agent), true);
  await load(WARM_UP, signedOne);
  await load(WARM_UP, plainOne);
  const totals = {
    signed: { seconds: 0, latencies: [] as number[], failed: 0, cpuMicros: 0 },
    plain: { seconds: 0, latencies: [] as number[], failed: 0, cpuMicros: 0 },
  };
  const perRound = Math.ceil(DELIVERIES / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, one] of [
      ['signed', signedOne],
      ['plain', plainOne],
    ] as const) {
      const result = await load(perRound, one);
      totals[name].seconds += result.seconds;
      totals[name].latencies.push(...result.latencies);
      totals[name].failed += result.failed;
      totals[name].cpuMicros += result.cpuMicros;
    }
  }
  client.close();
  agent.destroy();
  const figures = (total: typeof totals.signed) => ({
    per_second: Math.round(total.latencies.length / total.seconds),
    failed: total.failed,
    ...summary(total.latencies),
    // The sending process's CPU per request: steadier than the rate on a shared machine.
    client_cpu_us_per_request: Math.round(total.cpuMicros / total.latencies.length),
  });
  return {
    requests_each: perRound * ROUNDS,
    rounds: ROUNDS,
    concurrency: CONCURRENCY,
    signed_webhook_deliveries: figures(totals.signed),
    plain_unsigned_http_posts: figures(totals.plain),
  };
}

/** One plain request, the baseline: Node's own lookup, no guard. */
function plainPost(url: string, body: string, agent: http.Agent | false): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'idempotency-key': 'k',
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve());
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Guarded and plain requests interleaved one by one, so drift in the machine hits both alike. */
async function guardOverhead(port: number, keepAlive: boolean) {
  const url = `http://localhost:${port}/plain`;
  const body = JSON.stringify({ version: 1, padding: 'x'.repeat(400) });
  const client = createGuardedClient({ allowPrivateNetworks: true, keepAlive });
  const agent = keepAlive ? new http.Agent({ keepAlive: true }) : false;
  const guarded: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < WARM_UP + GUARD_SAMPLES; i++) {
    let started = performance.now();
    const outcome = await client.send({ method: 'POST', url, body, idempotencyKey: 'k' });
    if (!outcome.ok) throw new Error(`guarded request failed: ${outcome.error?.message}`);
    if (i >= WARM_UP) guarded.push(performance.now() - started);
    started = performance.now();
    await plainPost(url, body, agent);
    if (i >= WARM_UP) plain.push(performance.now() - started);
  }
  client.close();
  if (agent) agent.destroy();
  const g = summary(guarded);
  const p = summary(plain);
  return {
    samples: GUARD_SAMPLES,
    guarded: g,
    plain: p,
    added_p50_ms: +(g.p50_ms - p.p50_ms).toFixed(3),
    added_p99_ms: +(g.p99_ms - p.p99_ms).toFixed(3),
  };
}

async function main() {
  const secret = generateSigningSecret();
  // The machine may be shared: the load when the run started says how far to trust the figures.
  const loadAtStart = loadavg().map((load) => +load.toFixed(2));
  const { child, port: portPromise } = startReceiver(secret);
  try {
    const port = await portPromise;
    const deliveries = await throughput(port, secret);
    const newConnections = await guardOverhead(port, false);
    const keptAlive = await guardOverhead(port, true);
    const results = {
      benchmark: 'delivery',
      date: new Date().toISOString(),
      machine: machine(),
      settings: {
        receiver: 'child process on 127.0.0.1, verifies every X-Signature (HMAC-SHA256)',
        host_name: 'localhost (resolved through the guarded lookup on every new connection)',
        warm_up_requests: WARM_UP,
        load_average_at_start: { '1m': loadAtStart[0], '5m': loadAtStart[1], '15m': loadAtStart[2] },
      },
      throughput: deliveries,
      guard_overhead_new_connection_per_request: newConnections,
      guard_overhead_kept_alive_connections: keptAlive,
    };
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/delivery.json', `${JSON.stringify(results, null, 2)}\n`);
    console.log(JSON.stringify(results, null, 2));
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv.includes('--receiver')) {
  void receiver(process.env.BENCH_SECRET ?? '');
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
