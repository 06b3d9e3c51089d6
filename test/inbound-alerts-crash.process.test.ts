/**
 * kill -9 during a burst of Events API v2 triggers loses no accepted event and pages nobody twice
 * (issue 40's crash test): a real platform process takes triggers over several dedup keys from
 * concurrent senders, is killed with SIGKILL mid-burst, and is started again on the same DATA_DIR.
 * Every trigger answered 202 is then counted in its key's incident (`alert_count`) and on the
 * integration's inbox (`events_received`); each key has one incident, and the loopback receiver
 * got one page per key, counted by delivery key (a page sent again after the restart with the same
 * delivery key is the same page, as the receiver's idempotency sees it).
 */
import test from 'ava';
import { startHttpReceiver } from './support/notify-receivers/http-receiver.js';
import { restartablePlatform } from './support/restartable-platform.js';
import { waitFor } from './support/wait-for.js';

const KEYS = Array.from({ length: 8 }, (_, i) => `etl-task-${i}`);
const SENDERS = 16;
/** Accepted triggers before the kill: enough that every key is open and many more are repeats. */
const KILL_AFTER_ACCEPTED = 400;

test('SIGKILL mid-burst: every 202 is counted after the restart, one incident and one page per dedup key', async (t) => {
  const receiver = await startHttpReceiver(() => ({ status: 204 }));
  const platform = await restartablePlatform('ww-inbound-kill-', { INTEGRATION_EVENTS_PER_KEY_PER_MINUTE: '1000000' });
  const { url, start, kill, api } = platform;
  try {
    const first = await start(0);
    const channel = await api('POST', '/api/v1/notification-channels', {
      name: 'inbound pages',
      type: 'webhook',
      config: { url: `${receiver.url}/page`, method: 'POST', headers: {} },
    });
    const policy = await api('POST', '/api/v1/escalation-policies', {
      name: 'inbound kill test',
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.body.data.id }] }],
    });
    const integration = await api('POST', '/api/v1/integrations', {
      name: 'Airflow',
      kind: 'events_v2',
      escalation_policy_id: policy.body.data.id,
    });
    t.is(integration.status, 201);
    const { id: integrationId, routing_key: routingKey } = integration.body.data;

    const sent = new Map(KEYS.map((key) => [key, 0]));
    const accepted = new Map(KEYS.map((key) => [key, 0]));
    let acceptedTotal = 0;
    let next = 0;
    let killed: Promise<void> | undefined;
    // Senders go on until their requests fail: the kill lands while many are in flight.
    await Promise.all(
      Array.from({ length: SENDERS }, async () => {
        for (;;) {
          const key = KEYS[next++ % KEYS.length]!;
          sent.set(key, sent.get(key)! + 1);
          const answer = await fetch(`${url}/v2/enqueue`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              routing_key: routingKey,
              event_action: 'trigger',
              dedup_key: key,
              payload: { summary: `${key} failed`, source: 'airflow', severity: 'error' },
            }),
          }).catch(() => null);
          if (answer === null) return;
          if (answer.status !== 202) throw new Error(`answered ${answer.status}: ${await answer.text()}`);
          accepted.set(key, accepted.get(key)! + 1);
          acceptedTotal += 1;
          if (acceptedTotal === KILL_AFTER_ACCEPTED) killed = kill(first);
        }
      }),
    );
    await killed;
    t.true(acceptedTotal >= KILL_AFTER_ACCEPTED);
    t.true(
      [...sent.values()].reduce((a, b) => a + b, 0) > acceptedTotal,
      'some triggers were in flight when the process died',
    );

    await start(0);
    const incidents = async () =>
      (await api('GET', `/api/v1/incidents?source=integration:${integrationId}&limit=100`)).body.data as any[];
    /** Distinct delivery keys of the pages (incident.triggered) per incident title. */
    const pagesByTitle = () => {
      const pages = new Map<string, Set<string>>();
      for (const request of receiver.requests) {
        const body = JSON.parse(request.body);
        if (body.event !== 'incident.triggered') continue;
        const deliveries = pages.get(body.incident.title) ?? new Set<string>();
        deliveries.add(String(request.headers['idempotency-key'] ?? body.delivery_id));
        pages.set(body.incident.title, deliveries);
      }
      return pages;
    };
    await waitFor(async () => pagesByTitle().size === KEYS.length, {
      timeoutMs: 30_000,
      message: 'every key paged after the restart',
    });

    const listed = await incidents();
    t.deepEqual(listed.map((incident) => incident.dedup_key).sort(), [...KEYS].sort(), 'one incident per key');
    for (const incident of listed) {
      const key = incident.dedup_key as string;
      t.is(incident.status, 'triggered');
      t.true(
        incident.alert_count >= accepted.get(key)!,
        `${key}: ${incident.alert_count} counted, ${accepted.get(key)} accepted`,
      );
      t.true(incident.alert_count <= sent.get(key)!, `${key}: no more counted than were sent`);
    }
    const shown = (await api('GET', `/api/v1/integrations/${integrationId}`)).body.data;
    t.true(shown.events_received >= acceptedTotal, `${shown.events_received} received, ${acceptedTotal} accepted`);
    for (const [title, deliveries] of pagesByTitle())
      t.is(deliveries.size, 1, `${title}: paged once (${[...deliveries].join(', ')})`);
    t.is(receiver.requests.length > 0, true);
  } finally {
    await platform.stop();
    await receiver.stop();
  }
});
