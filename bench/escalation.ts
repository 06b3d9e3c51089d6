/**
 * 10,000 active incidents whose stage 2 falls due within the same minute, delivered as signed
 * webhooks to a local receiver through the real notifier and guarded client: how late stages
 * fire (fired_at − due_at, p50/p99; target p99 ≤ 1 s) and the peak RSS. Real timers, embedded
 * event store, loopback only; stops by itself. Writes bench/results/escalation.json.
 */
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { incidentStream } from '../src/events/incident.js';
import { notifyAdaptersFromSettings } from '../src/gateways/notify/adapters-from-settings.js';
import { createNotifier } from '../src/gateways/notify/notifier.js';
import { createEscalationInstruments, createEscalationManager } from '../src/process/escalation/escalation-manager.js';
import { machine, percentile } from './support/machine.js';

const INCIDENTS = 10_000;
const SPREAD_MS = 60_000;
const LEAD_MS = 15_000;
const TENANT = randomUUID();
const CHANNEL = randomUUID();

async function main() {
  // Counted by delivery key: a retried request (a timeout on a busy machine) is the same delivery.
  let received = 0;
  const deliveries = new Set<string>();
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      deliveries.add(String(request.headers['idempotency-key']));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as { port: number }).port;

  const dir = mkdtempSync(join(tmpdir(), 'bench-escalation-'));
  const eventStore = openSqliteEventStore({ filename: join(dir, 'events.db') });
  const stages = [
    { stageOrder: 1, delayMinutes: 0, targets: [{ type: 'channel' as const, id: CHANNEL, channels: [] }] },
    { stageOrder: 2, delayMinutes: 1, targets: [{ type: 'channel' as const, id: CHANNEL, channels: [] }] },
  ];
  // Each incident triggered and paged its stage 1 a minute ago, staggered so stage 2 falls due over one minute.
  const start = Date.now() + LEAD_MS;
  const ids: string[] = [];
  for (let i = 0; i < INCIDENTS; i++) {
    const id = randomUUID();
    ids.push(id);
    const firedAt = new Date(start + Math.floor((i / INCIDENTS) * SPREAD_MS) - 60_000).toISOString();
    const metadata = { tenantId: TENANT, actor: 'bench', correlationId: id, causationId: id, occurredAt: firedAt };
    await eventStore.append(incidentStream(id), [
      {
        type: 'IncidentTriggered',
        metadata,
        data: {
          incidentId: id,
          ruleId: randomUUID(),
          ruleName: 'bench',
          ordinal: 1,
          currentValue: 99,
          severity: 'high',
          metric: 'queue_time_seconds',
          condition: 'gt',
          threshold: 30,
          envId: randomUUID(),
          clusterId: null,
          escalationPolicyId: randomUUID(),
          triggeredAt: firedAt,
        },
      },
      {
        type: 'EscalationStarted',
        metadata,
        data: {
          incidentId: id,
          policyId: randomUUID(),
          policyName: 'bench',
          stages,
          repeatIntervalMinutes: 0,
          startedAt: firedAt,
        },
      },
      {
        type: 'EscalationStageFired',
        metadata,
        data: {
          incidentId: id,
          stageOrder: 1,
          cycle: 0,
          dueAt: firedAt,
          firedAt,
          recipients: [
            { key: `channel:${CHANNEL}`, via: { type: 'channel', id: CHANNEL }, medium: 'webhook', unreachable: null },
          ],
        },
      },
      {
        type: 'NotificationDelivered',
        metadata,
        data: {
          incidentId: id,
          kind: 'stage',
          stageOrder: 1,
          cycle: 0,
          recipientKey: `channel:${CHANNEL}`,
          via: { type: 'channel', id: CHANNEL },
          medium: 'webhook',
          target: `channel:${CHANNEL}`,
          idempotencyKey: 'k',
          statusCode: 204,
          latencyMs: 1,
          at: firedAt,
        },
      },
    ]);
  }

  const registry = new Registry();
  const { adapters, client } = notifyAdaptersFromSettings({
    allowPrivateNetworks: true,
    outboxDirectory: join(dir, 'outbox'),
    emailFrom: 'bench@example.com',
  });
  const manager = createEscalationManager({
    eventStore,
    registry,
    logger: pino({ level: 'silent' }),
    now: () => new Date(),
    notify: createNotifier({ adapters, registry }),
    instruments: createEscalationInstruments(registry),
    incidentUrl: (id) => `http://127.0.0.1/api/v1/incidents/${id}`,
    findPolicy: async () => null,
    activeIncidents: async () => ids,
    directory: {
      user: async () => null,
      activeGroupMembers: async () => null,
      onCall: async () => 'no_schedule',
      channel: async () => ({
        id: CHANNEL,
        type: 'webhook',
        config: { url: `http://127.0.0.1:${port}/hook`, method: 'POST', headers: {} },
        signingSecret: 'whsec_bench_secret_0123456789',
      }),
    },
  });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  await manager.start();
  // Writing the incidents can outlast LEAD_MS on a busy machine: then the first stages are overdue
  // before the manager looks, and their lateness measures the set-up, not the manager.
  const leadLeftMs = start - Date.now();
  const deadline = start + SPREAD_MS + 120_000;
  while (deliveries.size < INCIDENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
  await manager.idle();
  clearInterval(sampler);

  const lateness: number[] = [];
  for (const id of ids) {
    const fired = (await eventStore.readStream(incidentStream(id))).find(
      (e) => e.type === 'EscalationStageFired' && e.data.stageOrder === 2,
    );
    if (fired) lateness.push((Date.parse(String(fired.data.firedAt)) - Date.parse(String(fired.data.dueAt))) / 1000);
  }
  lateness.sort((a, b) => a - b);
  const result = {
    benchmark: 'escalation',
    date: new Date().toISOString(),
    machine: machine(),
    load_average_1m: Number(loadavg()[0]!.toFixed(2)),
    settings: {
      incidents: INCIDENTS,
      stage_2_due_within_ms: SPREAD_MS,
      delivery: 'signed webhook to a loopback receiver, real notifier and guarded client',
      store: 'embedded SQLite',
    },
    stages_fired: lateness.length,
    deliveries_received: deliveries.size,
    requests_repeated: received - deliveries.size,
    lead_left_at_start_ms: leadLeftMs,
    lateness_seconds: { p50: percentile(lateness, 50), p99: percentile(lateness, 99), max: lateness.at(-1) ?? null },
    target_p99_seconds: 1,
    met: lateness.length === INCIDENTS && percentile(lateness, 99) <= 1,
    peak_rss_mib: Math.round(peakRss / 2 ** 20),
  };
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/escalation.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  await manager.stop();
  await client.close();
  await eventStore.close();
  receiver.close();
}

void main();
