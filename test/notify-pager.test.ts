import test from 'ava';
import { createGuardedClient } from '../src/gateways/http/guarded-client.js';
import { pagerAdapter } from '../src/gateways/notify/pager-adapter.js';
import {
  DEFAULT_PAGER_EVENTS_URL,
  DEFAULT_SEVERITY_MAPPING,
  pagerEvent,
  pagerSeverity,
} from '../src/gateways/notify/pager-event.js';
import type { PagerTarget } from '../src/gateways/notify/port.js';
import { alertMessage } from './support/notify-receivers/alert-fixture.js';
import { eventProblems, startPagerStandIn } from './support/notify-receivers/pager-events-standin.js';
import { virtualTime } from './support/notify-receivers/virtual-time.js';
import { isRetryable } from '../src/events/delivery-retry.js';

const INTEGRATION_KEY = 'R0UT1NGKEY0000000000000000000001';
const channel = (key = INTEGRATION_KEY): PagerTarget => ({
  medium: 'pager',
  channelId: 'p0000000-0000-4000-8000-000000000001',
  config: {
    integration_key: key,
    severity_mapping: { critical: 'critical', high: 'error', medium: 'warning', low: 'info' },
  },
});

async function setUp(t: { teardown: (fn: () => unknown) => void }) {
  const time = virtualTime();
  const standIn = await startPagerStandIn({ now: time.now });
  const client = createGuardedClient({ allowPrivateNetworks: true, ...time });
  t.teardown(() => (client.close(), standIn.stop()));
  return { standIn, time, adapter: pagerAdapter(client, { eventsUrl: standIn.eventsUrl }) };
}

test('a trigger is a valid Events API v2 event, accepted with 202; ack and resolve act on the same dedup_key', async (t) => {
  const { standIn, adapter } = await setUp(t);
  const triggered = await adapter.deliver(channel(), alertMessage(), 'incident-1:stage-1:pager');
  t.like(triggered, {
    ok: true,
    medium: 'pager',
    status_code: 202,
    target: 'channel:p0000000-0000-4000-8000-000000000001',
    attempts: 1,
  });
  t.regex(triggered.response_excerpt!, /"status":"success"/);
  t.false(JSON.stringify(triggered).includes(INTEGRATION_KEY), 'the integration key is a secret');
  await adapter.deliver(channel(), alertMessage({ status: 'acknowledged' }), 'incident-1:ack:pager');
  await adapter.deliver(channel(), alertMessage({ status: 'resolved', currentValue: 50 }), 'incident-1:resolve:pager');
  t.deepEqual(
    standIn.events.map((e) => [e.event_action, e.dedup_key, e.routing_key]),
    [
      ['trigger', alertMessage().incidentId, INTEGRATION_KEY],
      ['acknowledge', alertMessage().incidentId, INTEGRATION_KEY],
      ['resolve', alertMessage().incidentId, INTEGRATION_KEY],
    ],
  );
  t.like(standIn.events[0], {
    payload: {
      summary: '[CRITICAL] Triggered: Disk usage high (disk_used_percent 93.5 > 90) on prod-analytics',
      source: 'prod-analytics',
      severity: 'critical',
      timestamp: '2026-03-01T11:59:30.000Z',
      custom_details: {
        incident_id: alertMessage().incidentId,
        rule_name: 'Disk usage high',
        metric: 'disk_used_percent',
        current_value: '93.5',
        threshold: '90',
      },
    },
    links: [{ href: alertMessage().incidentUrl }],
  });
});

test("the platform's severities go through the channel's mapping; a gap falls back to the default", (t) => {
  const mapping = { critical: 'error', high: 'error', medium: 'info' };
  t.is(pagerSeverity('critical', mapping), 'error');
  t.is(pagerSeverity('medium', mapping), 'info');
  t.is(pagerSeverity('low', mapping), 'info', 'not mapped: default');
  t.is(pagerSeverity('high', { high: 'sev1' }), 'error', 'not a pager severity: default');
  const event = pagerEvent(alertMessage({ severity: 'high', cluster: null }), {
    integration_key: INTEGRATION_KEY,
    severity_mapping: { high: 'warning' },
  }) as { payload: { severity: string; source: string } };
  t.is(event.payload.severity, 'warning');
  t.is(event.payload.source, 'warehouse-watch');
  t.deepEqual(eventProblems(event as unknown as Record<string, unknown>), []);
  t.is(DEFAULT_PAGER_EVENTS_URL, 'https://events.pagerduty.com/v2/enqueue');
});

test('a channel stored with a partial severity_mapping sends every severity it leaves out with the default mapping', async (t) => {
  t.deepEqual(
    DEFAULT_SEVERITY_MAPPING,
    { critical: 'critical', high: 'error', medium: 'warning', low: 'info' },
    'the default the documentation quotes',
  );
  const { standIn, adapter } = await setUp(t);
  const partial: PagerTarget = {
    ...channel(),
    config: { integration_key: INTEGRATION_KEY, severity_mapping: { critical: 'error', medium: 'critical' } },
  };
  for (const severity of ['critical', 'high', 'medium', 'low'] as const) {
    t.like(await adapter.deliver(partial, alertMessage({ severity }), `k-${severity}`), { ok: true, status_code: 202 });
  }
  t.deepEqual(
    standIn.events.map((e) => (e.payload as { severity: string }).severity),
    ['error', 'error', 'critical', 'info'],
  );
  t.deepEqual(
    standIn.events.map((e) => eventProblems(e as unknown as Record<string, unknown>)),
    [[], [], [], []],
  );
});

test('a rate-limited integration (429) is retried after Retry-After', async (t) => {
  const { standIn, adapter, time } = await setUp(t);
  standIn.rateLimit(2, '4');
  const outcome = await adapter.deliver(channel(), alertMessage(), 'k');
  t.like(outcome, { ok: true, status_code: 202, attempts: 3 });
  t.deepEqual(time.sleeps, [4000, 4000]);
  t.is(standIn.events.length, 1);
  t.deepEqual(
    standIn.requests.map((r) => r.headers['idempotency-key']),
    ['k', 'k', 'k'],
  );
});

test('an event the API refuses (400) is not retried and its reasons come back', async (t) => {
  const { standIn, adapter, time } = await setUp(t);
  const outcome = await adapter.deliver(channel('x'.repeat(100)), alertMessage(), 'k');
  t.like(outcome, { ok: false, status_code: 400, attempts: 1, error: { kind: 'http' } });
  t.regex(outcome.response_excerpt!, /routing_key/);
  t.deepEqual(time.sleeps, []);
  t.is(standIn.requests.length, 1);
});

test('the stand-in refuses what the API refuses (so the tests above can fail)', (t) => {
  const key = INTEGRATION_KEY;
  t.deepEqual(
    eventProblems({
      routing_key: key,
      event_action: 'trigger',
      payload: { summary: 's', source: 'x', severity: 'high' },
    }),
    ["'payload.severity' must be one of critical, error, warning, info"],
  );
  t.true(eventProblems({ routing_key: key, event_action: 'resolve' }).length > 0, 'resolve without dedup_key');
  t.true(
    eventProblems({
      routing_key: key,
      event_action: 'trigger',
      payload: { summary: 'x'.repeat(1025), source: 's', severity: 'info' },
    }).length > 0,
  );
  t.deepEqual(eventProblems({ routing_key: 'R0UTINGKEY123456', event_action: 'resolve', dedup_key: 'd' }), [
    "Length of 'routing_key' is incorrect (should be 32 characters)",
  ]);
  t.deepEqual(eventProblems({ routing_key: key, event_action: 'resolve', dedup_key: 'd' }), []);
});

test('the stand-in accepts 120 events a minute per integration key, then answers 429 without Retry-After; the failure is one to retry durably', async (t) => {
  const { standIn, adapter, time } = await setUp(t);
  for (let i = 0; i < 120; i++)
    t.true((await adapter.deliver(channel(), alertMessage({ incidentId: `incident-${i}` }), `k${i}`)).ok);
  const limited = await adapter.deliver(channel(), alertMessage(), 'k-limited');
  t.like(limited, { ok: false, status_code: 429, error: { kind: 'http' } });
  t.is(standIn.requests.at(-1)!.headers['retry-after'], undefined);
  t.true(isRetryable(limited), 'a 429 is retried later (src/events/delivery-retry.ts), not given up');
  t.true(
    (await adapter.deliver(channel('R0UT1NGKEY0000000000000000000002'), alertMessage(), 'other-key')).ok,
    'the limit is per integration key',
  );
  await time.sleep(60_000);
  t.true((await adapter.deliver(channel(), alertMessage(), 'k-limited')).ok, 'a minute later it goes through');
});
