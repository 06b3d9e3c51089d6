/**
 * Durable delivery retries (issue 26, item 2): a delivery failing on 429, 5xx or the network is
 * recorded as NotificationRetryScheduled and made again with the same key 30 s, 1, 2, 4, 8, 10 and
 * 10 minutes later; the 8th failure is the final NotificationFailed. The retries live on the
 * incident's stream, so a restart picks them up. Virtual time (test/support/escalation-harness.ts).
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { MAX_DELIVERY_ATTEMPTS } from '../src/events/delivery-retry.js';
import { deliveryKey, type StageSnapshot } from '../src/events/escalation.js';
import {
  evolveIncident,
  incidentStream,
  initialIncidentState,
  type IncidentStreamEvent,
} from '../src/events/incident.js';
import { createHarness, minutes, user, type DeliveryScript } from './support/escalation-harness.js';

const alice = '00000000-0000-4000-8000-00000000a11c';
const pagerChannel = '00000000-0000-4000-8000-0000000000dd';
const SEC = 1000;

function onePagerAndAlice(script: DeliveryScript) {
  const stages: StageSnapshot[] = [
    {
      stageOrder: 1,
      delayMinutes: 0,
      targets: [
        { type: 'channel', id: pagerChannel, channels: [] },
        { type: 'user', id: alice, channels: ['email'] },
      ],
    },
  ];
  return createHarness({
    stages,
    script,
    directory: {
      user: async (_tenant, id) => user(id),
      channel: async () => ({
        id: pagerChannel,
        type: 'pager',
        config: {
          integration_key: 'R0UT1NGKEY0000000000000000000042',
          severity_mapping: { critical: 'critical', high: 'error', medium: 'warning', low: 'info' },
        },
      }),
    },
  });
}

const outcomes = async (h: ReturnType<typeof onePagerAndAlice>, id: string, medium: string) =>
  (await h.eventStore.readStream(incidentStream(id)))
    .filter((e) => e.data.medium === medium && e.type.startsWith('Notification'))
    .map((e) => [e.type, e.data.kind, e.data.attempt ?? null]);

test('a page the pager service rate-limits (429) is made again 30 s, 1 and 2 minutes later with the same key, until it goes through', async (t) => {
  const h = onePagerAndAlice((d, attempt) => (d.medium === 'pager' && attempt <= 3 ? { status: 429 } : undefined));
  const id = randomUUID();
  await h.trigger(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(10));
  const pages = h.delivered.filter((d) => d.medium === 'pager');
  t.deepEqual(
    pages.map((d) => d.at),
    [0, 30 * SEC, 90 * SEC, 210 * SEC],
  );
  t.true(
    pages.every((d) => d.key === deliveryKey(id, 'stage', 1, 0, `channel:${pagerChannel}`, 'pager')),
    'the same dedup key every time',
  );
  t.deepEqual(await outcomes(h, id, 'pager'), [
    ['NotificationRetryScheduled', 'stage', 1],
    ['NotificationRetryScheduled', 'stage', 2],
    ['NotificationRetryScheduled', 'stage', 3],
    ['NotificationDelivered', 'stage', null],
  ]);
  t.is(h.delivered.filter((d) => d.medium === 'email').length, 1, 'the email that went through is not sent again');
  await h.close();
});

test('after the last attempt the failure is final: NotificationFailed, and nothing more is tried', async (t) => {
  const h = onePagerAndAlice((d) => (d.medium === 'pager' ? { status: 503 } : undefined));
  const id = randomUUID();
  await h.trigger(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(120));
  const pages = h.delivered.filter((d) => d.medium === 'pager');
  t.is(pages.length, MAX_DELIVERY_ATTEMPTS);
  t.deepEqual(
    pages.map((d) => d.at / SEC),
    [0, 30, 90, 210, 450, 930, 1530, 2130],
  );
  const recorded = await outcomes(h, id, 'pager');
  t.deepEqual(recorded.at(-1), ['NotificationFailed', 'stage', null]);
  t.is(recorded.filter(([type]) => type === 'NotificationRetryScheduled').length, MAX_DELIVERY_ATTEMPTS - 1);
  await h.close();
});

test('a refusal another attempt cannot cure (400) is final at once; a network failure is retried', async (t) => {
  const h = onePagerAndAlice((d, attempt) =>
    d.medium === 'pager' ? { status: 400 } : attempt === 1 ? { kind: 'network' } : undefined,
  );
  const id = randomUUID();
  await h.trigger(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(10));
  t.deepEqual(await outcomes(h, id, 'pager'), [['NotificationFailed', 'stage', null]]);
  t.deepEqual(await outcomes(h, id, 'email'), [
    ['NotificationRetryScheduled', 'stage', 1],
    ['NotificationDelivered', 'stage', null],
  ]);
  await h.close();
});

test('a retry waiting when the platform restarts is made by the next manager, at its time; the read model lists the incident for it', async (t) => {
  const h = onePagerAndAlice((d, attempt) =>
    d.medium === 'pager' && d.status === 'acknowledged' && attempt === 1 ? { status: 502 } : undefined,
  );
  const id = randomUUID();
  await h.trigger(id);
  h.wakeAll(id);
  await h.advanceTo(minutes(1));
  await h.acknowledge(id, alice);
  h.wakeAll(id);
  await h.advanceTo(minutes(1) + 5 * SEC);
  const folded = (await h.eventStore.readStream(incidentStream(id)))
    .map((e) => ({ type: e.type, data: e.data }) as IncidentStreamEvent)
    .reduce(evolveIncident, initialIncidentState());
  t.is(
    folded.exists && folded.next_delivery_retry_at,
    new Date(minutes(1) + 30 * SEC).toISOString(),
    'what a restart lists the incident by',
  );

  await h.managers[0]!.stop(); // the platform goes down with the retry pending
  h.managers.splice(0, 1);
  h.addManager().wake(id);
  await h.advanceTo(minutes(5));
  const acks = h.delivered.filter((d) => d.medium === 'pager' && d.status === 'acknowledged');
  t.deepEqual(
    acks.map((d) => d.at),
    [minutes(1) - minutes(0), minutes(1) + 30 * SEC - minutes(0)],
  );
  t.deepEqual(
    (await outcomes(h, id, 'pager')).filter(([, kind]) => kind === 'acknowledgement'),
    [
      ['NotificationRetryScheduled', 'acknowledgement', 1],
      ['NotificationDelivered', 'acknowledgement', null],
    ],
  );
  await h.close();
});
