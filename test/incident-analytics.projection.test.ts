/**
 * The incidentAnalytics projection on its own: applying the same events twice leaves the same
 * document (idempotence), and each event lands in the fact it stands for.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  INCIDENT_ANALYTICS,
  INCIDENT_PAGES,
  incidentAnalyticsProjection,
  type IncidentFactsDoc,
} from '../projections/incident-analytics.js';
import { readEventData } from '../src/events/catalogue.js';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import { sampleEvent } from './support/eventstore-contract.js';

test('each event lands in its fact, and applying the events twice leaves the same document', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'analytics-proj-'));
  const eventStore = openSqliteEventStore({ filename: join(dir, 'e.db') });
  const readStore = openSqliteReadStore(join(dir, 'r.db'));
  const incidentId = randomUUID();
  const ruleId = randomUUID();
  const policyId = randomUUID();
  const userId = randomUUID();
  const at = (minute: number) => new Date(Date.parse('2026-03-29T00:00:00Z') + minute * 60_000).toISOString();
  const delivery = (stageOrder: number, medium: string, minute: number) => ({
    incidentId,
    kind: 'stage',
    stageOrder,
    cycle: 0,
    recipientKey: `user:${userId}`,
    via: { type: 'user', id: userId },
    medium,
    target: 'a***@example.com',
    idempotencyKey: `${stageOrder}:${medium}`,
    statusCode: 200,
    latencyMs: 1,
    at: at(minute),
  });
  await eventStore.append(`incident-${incidentId}`, [
    sampleEvent('IncidentTriggered', {
      incidentId,
      ruleId,
      ruleName: 'r',
      ordinal: 1,
      currentValue: 1,
      severity: 'high',
      metric: 'm',
      condition: 'gt',
      threshold: 0,
      envId: randomUUID(),
      clusterId: null,
      escalationPolicyId: policyId,
      triggeredAt: at(0),
    }),
    sampleEvent('EscalationStarted', {
      incidentId,
      policyId,
      policyName: 'p',
      repeatIntervalMinutes: 0,
      startedAt: at(0),
      stages: [10, 20, 30].map((stageOrder) => ({ stageOrder, delayMinutes: 5, targets: [] })),
    }),
    sampleEvent('EscalationStageFired', {
      incidentId,
      stageOrder: 10,
      cycle: 0,
      dueAt: at(0),
      firedAt: at(0),
      recipients: [],
    }),
    sampleEvent('NotificationDelivered', delivery(10, 'email', 0)),
    sampleEvent('EscalationStageFired', {
      incidentId,
      stageOrder: 20,
      cycle: 0,
      dueAt: at(5),
      firedAt: at(5),
      recipients: [],
    }),
    sampleEvent('NotificationFailed', { ...delivery(20, 'sms', 5), error: { kind: 'x', message: 'no' } }),
    sampleEvent('NotificationDelivered', {
      ...delivery(20, 'email', 6),
      kind: 'resolution',
      stageOrder: null,
      cycle: null,
    }),
    sampleEvent('IncidentAcknowledged', { incidentId, by: `user:${userId}`, at: at(7) }),
    sampleEvent('IncidentAcknowledged', { incidentId, by: 'user:other', at: at(8) }),
    sampleEvent('IncidentResolved', { incidentId, by: 'system', at: at(9), reason: 'auto', note: null, value: 0 }),
  ]);
  const events = (await eventStore.readAll()).map((e) => ({ ...e, data: readEventData(e.type, e.data) }));
  const apply = (batch: typeof events) =>
    readStore.applyBatch(
      { projection: incidentAnalyticsProjection.name, version: incidentAnalyticsProjection.version },
      batch,
      (event, writer) => incidentAnalyticsProjection.apply(event, writer),
    );
  await apply(events);
  const once = await readStore.get<IncidentFactsDoc>(INCIDENT_ANALYTICS, incidentId);
  t.like(once, {
    policyId,
    severity: 'high',
    clusterId: null,
    triggeredAt: at(0),
    acknowledgedAt: at(7),
    acknowledgedBy: `user:${userId}`,
    resolvedAt: at(9),
    resolutionReason: 'auto',
    stageOrders: [10, 20, 30],
    maxStage: 2,
    pagesPerMedium: { email: 1 },
    failedPages: 1,
  });
  const pages = () => readStore.find(INCIDENT_PAGES, { incidentId }, { sort: [['at', 'asc']] });
  const pagesOnce = await pages();
  t.deepEqual(
    pagesOnce.map((p) => [p.at, p.medium, p.ok]),
    [
      [at(0), 'email', true],
      [at(5), 'sms', false],
    ],
    'stage pages only: the all-clear is not a page',
  );
  await apply(events);
  await apply(events.slice(3, 6));
  t.deepEqual(await readStore.get(INCIDENT_ANALYTICS, incidentId), once);
  t.deepEqual(await pages(), pagesOnce);
});
