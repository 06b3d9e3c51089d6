/**
 * Incident analytics over 1,000,000 incident events: the projection's throughput (events applied
 * per second by the runner into the embedded read store, from an empty read model to the log's
 * head) and the query's latency (the route's work: one tenant-filtered indexed read of a range and
 * the aggregation) for 30-day and 366-day ranges. Writes bench/results/analytics.json.
 *
 *   npx tsx bench/analytics.ts            (BENCH_EVENTS=100000 for a quick run)
 *
 * The history is seeded: 10 tenants, 40 rules each, incidents spread over 2026, each with 8 events
 * (triggered, escalation started, stage 1 fired and its page, half of them a stage 2 and its page,
 * an acknowledgement for most, a resolution). Appending the log is not measured.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import {
  INCIDENT_ANALYTICS,
  incidentAnalyticsProjection,
  type IncidentFactsDoc,
} from '../projections/incident-analytics.js';
import { incidentGroups, noisiestRules, type GroupBy } from '../src/analytics/incident-stats.js';
import type { EventToAppend } from '../src/eventstore/port.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { createProjectionRunner } from '../src/projection-runner/runner.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { machine, percentile } from './support/machine.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const TENANTS = 10;
const RULES_PER_TENANT = 40;
const QUERIES = 200;
const YEAR_START = Date.parse('2026-01-01T00:00:00Z');
const DAY_MS = 86_400_000;

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const random = seededRandom(20_261_125);
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
const iso = (ms: number) => new Date(ms).toISOString();

const tenants = Array.from({ length: TENANTS }, () => ({
  id: randomUUID(),
  policy: randomUUID(),
  schedule: randomUUID(),
  rules: Array.from({ length: RULES_PER_TENANT }, (_, n) => ({ id: randomUUID(), name: `rule ${n}` })),
  users: Array.from({ length: 8 }, () => randomUUID()),
}));

/** One incident's stream: 6 to 10 events. */
function incidentEvents(ordinal: number): { tenantId: string; stream: string; events: EventToAppend[] } {
  const tenant = pick(tenants);
  const rule = pick(tenant.rules);
  const incidentId = randomUUID();
  const triggered = YEAR_START + Math.floor(random() * 365 * DAY_MS);
  const metadata = (at: number) => ({
    tenantId: tenant.id,
    actor: 'system',
    correlationId: incidentId,
    causationId: incidentId,
    occurredAt: iso(at),
  });
  const event = (type: string, at: number, data: Record<string, unknown>): EventToAppend => ({
    type,
    data: { incidentId, ...data },
    metadata: metadata(at),
  });
  const page = (stage: number, at: number, ok: boolean) => {
    const user = pick(tenant.users);
    return event(ok ? 'NotificationDelivered' : 'NotificationFailed', at, {
      kind: 'stage',
      stageOrder: stage,
      cycle: 0,
      recipientKey: `user:${user}`,
      via: { type: 'schedule', id: tenant.schedule },
      medium: pick(['email', 'sms', 'chat']),
      target: 'a***@example.com',
      idempotencyKey: `${incidentId}:${stage}`,
      statusCode: ok ? 250 : 550,
      latencyMs: 10,
      at: iso(at),
      ...(ok ? {} : { error: { kind: 'rejected', message: 'no' } }),
    });
  };
  const events = [
    event('IncidentTriggered', triggered, {
      ruleId: rule.id,
      ruleName: rule.name,
      ordinal,
      currentValue: 1,
      severity: pick(['critical', 'high', 'medium', 'low']),
      metric: 'm',
      condition: 'gt',
      threshold: 0,
      envId: tenant.id,
      clusterId: pick(['c1', 'c2', null]),
      escalationPolicyId: tenant.policy,
      triggeredAt: iso(triggered),
    }),
    event('EscalationStarted', triggered, {
      policyId: tenant.policy,
      policyName: 'p',
      repeatIntervalMinutes: 0,
      startedAt: iso(triggered),
      stages: [1, 2].map((stageOrder) => ({
        stageOrder,
        delayMinutes: 10,
        targets: [{ type: 'schedule', id: tenant.schedule, channels: ['email'] }],
      })),
    }),
    event('EscalationStageFired', triggered, {
      stageOrder: 1,
      cycle: 0,
      dueAt: iso(triggered),
      firedAt: iso(triggered),
      recipients: [],
    }),
    page(1, triggered + 5_000, random() > 0.05),
  ];
  if (random() < 0.5) {
    const fired = triggered + 600_000;
    events.push(
      event('EscalationStageFired', fired, {
        stageOrder: 2,
        cycle: 0,
        dueAt: iso(fired),
        firedAt: iso(fired),
        recipients: [],
      }),
      page(2, fired + 5_000, true),
    );
  }
  const acknowledged = triggered + Math.floor(random() * 1_800_000);
  if (random() < 0.8) events.push(event('IncidentAcknowledged', acknowledged, { by: 'user:x', at: iso(acknowledged) }));
  const resolved = acknowledged + Math.floor(random() * 7_200_000);
  events.push(
    event('IncidentResolved', resolved, {
      by: 'system',
      at: iso(resolved),
      reason: pick(['auto', 'auto', 'manual', 'rule_disabled']),
      note: null,
      value: null,
    }),
  );
  return { tenantId: tenant.id, stream: `incident-${incidentId}`, events };
}

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-analytics-'));
  const eventStore = openSqliteEventStore({ filename: join(dir, 'events.db') });
  const readStore = openSqliteReadStore(join(dir, 'read-models.db'));
  let appended = 0;
  let incidents = 0;
  const appendStarted = performance.now();
  while (appended < EVENTS) {
    const incident = incidentEvents(++incidents);
    await eventStore.append(incident.stream, incident.events, { expectedRevision: 'no_stream' });
    appended += incident.events.length;
  }
  const appendSeconds = (performance.now() - appendStarted) / 1000;
  const head = await eventStore.headPosition();

  const runner = createProjectionRunner({
    eventStore,
    readStore,
    projections: [incidentAnalyticsProjection],
    logger: pino({ level: 'silent' }),
  });
  const projectStarted = performance.now();
  const cpuBefore = process.cpuUsage();
  await runner.start();
  if (!(await runner.waitFor(head, 3_600_000))) throw new Error('the projection did not reach the head');
  const projectSeconds = (performance.now() - projectStarted) / 1000;
  const projectCpu = process.cpuUsage(cpuBefore);

  const query = async (days: number, groupBy: GroupBy) => {
    const samples: number[] = [];
    let rows = 0;
    let readMs = 0;
    const cpuBefore = process.cpuUsage();
    for (let n = 0; n < QUERIES; n++) {
      const tenant = pick(tenants);
      const since = YEAR_START + Math.floor(random() * Math.max(1, 365 - days)) * DAY_MS;
      const until = since + days * DAY_MS;
      const started = performance.now();
      const docs = await readStore.find<IncidentFactsDoc>(
        INCIDENT_ANALYTICS,
        { tenantId: tenant.id, triggeredAt: { $gte: iso(since), $lt: iso(until) } },
        { sort: [['triggeredAt', 'asc']] },
      );
      readMs += performance.now() - started;
      incidentGroups(docs, groupBy, 'Europe/Berlin');
      noisiestRules(docs, until - since);
      samples.push(performance.now() - started);
      rows += docs.length;
    }
    const cpu = process.cpuUsage(cpuBefore);
    const sorted = samples.sort((a, b) => a - b);
    return {
      queries: QUERIES,
      range_days: days,
      group_by: groupBy,
      mean_incidents_read: Math.round(rows / QUERIES),
      p50_ms: round(percentile(sorted, 50)),
      p99_ms: round(percentile(sorted, 99)),
      max_ms: round(sorted[sorted.length - 1]!),
      // Wall time of the indexed read (SQLite and JSON parsing) against the whole; CPU per query is free of waiting for a core.
      mean_read_ms: round(readMs / QUERIES),
      mean_ms: round(samples.reduce((a, b) => a + b, 0) / QUERIES),
      cpu_mean_ms: round((cpu.user + cpu.system) / 1000 / QUERIES),
    };
  };
  const queries = [await query(30, 'rule'), await query(30, 'day'), await query(366, 'week'), await query(366, 'rule')];
  await runner.stop();

  const results = {
    benchmark: 'analytics',
    date: new Date().toISOString(),
    machine: machine(),
    load_average_1m: round(loadavg()[0]!, 1),
    settings: {
      events: appended,
      incidents,
      tenants: TENANTS,
      rules_per_tenant: RULES_PER_TENANT,
      read_store: 'embedded SQLite',
      runner: 'in-process (createProjectionRunner)',
    },
    append: { seconds: round(appendSeconds, 1), events_per_second: Math.round(appended / appendSeconds) },
    projection: {
      seconds: round(projectSeconds, 1),
      events_per_second: Math.round(appended / projectSeconds),
      cpu_seconds: round((projectCpu.user + projectCpu.system) / 1e6, 1),
      documents: await readStore.count(INCIDENT_ANALYTICS, {}),
    },
    queries,
  };
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'analytics.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
  rmSync(dir, { recursive: true, force: true });
}

await main();
