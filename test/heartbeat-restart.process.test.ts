/**
 * Killing the platform while a heartbeat is overdue loses nothing and pages nobody twice (issue 38's
 * crash test): real child processes, SIGKILL, restarts on the same DATA_DIR, the restarted ones
 * with their clock shifted (CLOCK_OFFSET_SECONDS) so the heartbeat is overdue without waiting.
 */
import test from 'ava';
import { startHttpReceiver } from './support/notify-receivers/http-receiver.js';
import { restartablePlatform } from './support/restartable-platform.js';
import { waitFor } from './support/wait-for.js';

test('SIGKILL while a heartbeat is overdue, twice: it pages once after the restart, and not again after the next', async (t) => {
  const receiver = await startHttpReceiver(() => ({ status: 204 }));
  const platform = await restartablePlatform('ww-heartbeat-kill-', { HEARTBEAT_CHECK_INTERVAL_SECONDS: '1' });
  const { url, start, kill, api, metric } = platform;
  try {
    const first = await start(0);
    const channel = await api('POST', '/api/v1/notification-channels', {
      name: 'heartbeat pages',
      type: 'webhook',
      config: { url: `${receiver.url}/page`, method: 'POST', headers: {} },
    });
    const policy = await api('POST', '/api/v1/escalation-policies', {
      name: 'heartbeat kill test',
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.body.data.id }] }],
    });
    const created = await api('POST', '/api/v1/heartbeats', {
      name: 'nightly load',
      interval_seconds: 60,
      grace_seconds: 0,
      escalation_policy_id: policy.body.data.id,
    });
    t.is(created.status, 201);
    const { id, token: pingToken } = created.body.data;
    t.is((await fetch(`${url}/hb/${pingToken}`, { method: 'POST' })).status, 200);
    const pingedAt = (await api('GET', `/api/v1/heartbeats/${id}`)).body.data.last_ping_at;
    t.truthy(pingedAt);
    await kill(first);

    // Two minutes later the heartbeat is overdue: the restarted platform pages for it, once.
    const second = await start(120);
    const incidents = async () => (await api('GET', '/api/v1/incidents?source=heartbeat')).body.data as any[];
    await waitFor(async () => receiver.requests.filter((r) => r.path === '/page').length === 1, {
      timeoutMs: 30_000,
      message: 'the missed heartbeat paged after the restart',
    });
    const [incident, ...others] = await incidents();
    t.deepEqual(others, []);
    t.like(incident, { status: 'triggered', title: 'nightly load missed its heartbeat' });
    t.is(
      incident.detail,
      `no ping since ${pingedAt}; expected every 1 min (grace 0 s)`,
      'the ping before the kill was kept',
    );
    await kill(second);

    // Half a minute after that, still overdue: the next platform checks again and again, pages nobody.
    await start(150);
    await waitFor(async () => (await metric('heartbeat_checks_total')) >= 3, {
      timeoutMs: 30_000,
      message: 'three checks by the third platform',
    });
    t.is(await metric('heartbeat_missed_incidents_opened_total'), 0, 'the third platform opened nothing');
    t.deepEqual(
      (await incidents()).map((i) => [i.id, i.status]),
      [[incident.id, 'triggered']],
    );
    const delivered = (await api('GET', `/api/v1/incidents/${incident.id}/events`)).body.data.filter(
      (e: any) => e.type === 'NotificationDelivered',
    );
    t.is(delivered.length, 1, 'one delivery: none made again');
    t.is(receiver.requests.filter((r) => r.path === '/page').length, 1);

    // The next ping resolves it.
    t.is((await fetch(`${url}/hb/${pingToken}`)).status, 200);
    t.is((await api('GET', `/api/v1/incidents/${incident.id}`)).body.data.status, 'resolved');
  } finally {
    await platform.stop();
    await receiver.stop();
  }
});
