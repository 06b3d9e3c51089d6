/**
 * The platform watch's handling of the event store refusing appends (src/process/platform-watch.ts),
 * with the stores faked: while appends are refused the incident cannot be opened (the attempt is
 * counted), it opens at the first check once appends work and resolves at the next. The HTTP tests
 * of the other causes are in platform-watch.http.test.ts.
 */
import test from 'ava';
import pino from 'pino';
import { Registry } from 'prom-client';
import type { AppendRefusalSnapshot } from '../src/process/platform-causes.js';
import { createPlatformWatch } from '../src/process/platform-watch.js';
import { platformWatchMetrics } from '../src/process/platform-watch-metrics.js';
import type { SubjectIncident } from '../src/process/subject-incidents.js';

function watchWithFakes() {
  let now = Date.parse('2026-03-02T10:00:00.000Z');
  let refusal: AppendRefusalSnapshot | undefined;
  const opened: SubjectIncident[] = [];
  const resolved: string[] = [];
  const open = new Set<string>();
  const registry = new Registry();
  const watch = createPlatformWatch({
    instanceId: 'i-1',
    now: () => new Date(now),
    periodMs: 60_000,
    evaluatorIntervalMs: 60_000,
    lastTickAt: () => now,
    projections: () => [],
    projectionStuckAfterMs: 300_000,
    appendRefusal: () => refusal,
    incidents: {
      async open(_cause, incident) {
        if (refusal) throw new Error('SQLITE_FULL: database or disk is full');
        if (open.has(incident.subject)) return { incidentId: incident.subject, opened: false };
        open.add(incident.subject);
        opened.push(incident);
        return { incidentId: incident.subject, opened: true };
      },
      async resolve(_cause, subject) {
        if (refusal) throw new Error('SQLITE_FULL: database or disk is full');
        if (!open.delete(subject)) return null;
        resolved.push(subject);
        return subject;
      },
    },
    deploymentPolicy: async () => ({ tenantId: 'ops', policyId: '00000000-0000-4000-8000-000000000001' }),
    tenantPolicy: async () => null,
    metrics: platformWatchMetrics(registry),
    logger: pino({ level: 'silent' }),
  });
  return {
    watch,
    opened,
    resolved,
    registry,
    refuse: (value: AppendRefusalSnapshot | undefined) => (refusal = value),
    tick: () => (now += 60_000),
  };
}

const metric = async (registry: Registry, name: string, cause: string) =>
  (await registry.getSingleMetric(name)!.get()).values.find((v) => v.labels.cause === cause)?.value ?? 0;

test('a refusal of the event store is told once appends work again, then resolves', async (t) => {
  const fake = watchWithFakes();
  const refusal = { since: new Date('2026-03-02T09:58:00.000Z'), error: 'SQLITE_FULL: disk full', refused: 3 };
  fake.refuse(refusal);
  await fake.watch.check();
  t.deepEqual(fake.opened, [], 'no incident can be appended while appends are refused');
  t.is(await metric(fake.registry, 'platform_watch_failing', 'event_store'), 1);
  t.is(await metric(fake.registry, 'platform_watch_open_failures_total', 'event_store'), 1);

  // Appends work again (the refusal tracker cleared): the kept refusal is told now.
  fake.refuse(undefined);
  fake.tick();
  await fake.watch.check();
  t.is(fake.opened.length, 1);
  t.like(fake.opened[0], {
    source: 'platform',
    subject: 'platform:event-store@i-1',
    title: 'The event store refused appends',
    severity: 'critical',
  });
  t.regex(fake.opened[0]!.detail ?? '', /since 2026-03-02T09:58:00\.000Z, 3 refused; the last: SQLITE_FULL/);
  t.deepEqual(fake.resolved, []);

  fake.tick();
  await fake.watch.check();
  t.deepEqual(fake.resolved, ['platform:event-store@i-1'], 'appends still work: resolved');
  t.is(await metric(fake.registry, 'platform_watch_failing', 'event_store'), 0);
  fake.tick();
  await fake.watch.check();
  t.is(fake.opened.length, 1, 'nothing opened again');
});

test('a refusal that outlasts several checks is told once', async (t) => {
  const fake = watchWithFakes();
  fake.refuse({ since: new Date('2026-03-02T09:58:00.000Z'), error: 'disk full', refused: 1 });
  for (let i = 0; i < 3; i++) {
    fake.tick();
    await fake.watch.check();
  }
  fake.refuse(undefined);
  fake.tick();
  await fake.watch.check();
  fake.tick();
  await fake.watch.check();
  t.is(fake.opened.length, 1);
  t.is(await metric(fake.registry, 'platform_watch_open_failures_total', 'event_store'), 3);
});
