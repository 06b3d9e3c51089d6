/**
 * Killing the platform between stages neither skips nor doubles a stage (the escalation issue's
 * "Done when"): real child processes, SIGKILL, restarts. The restarted platforms run with their
 * clock shifted (CLOCK_OFFSET_SECONDS) so stage 2 is due without waiting a real minute.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHttpReceiver } from './support/notify-receivers/http-receiver.js';
import { devToken, freePort, startPlatformProcess, type PlatformProcess } from './support/platform-process.js';
import { waitFor } from './support/wait-for.js';

test('SIGKILL between stages, twice: stage 2 fires exactly once after the restart and is not repeated by the next one', async (t) => {
  const receiver = await startHttpReceiver(() => ({ status: 204 }));
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-escalation-kill-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { DATA_DIR: dataDir, PORT: String(port), BASE_URL: url, ALERT_EVALUATION_INTERVAL_SECONDS: '1', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' };
  const running: PlatformProcess[] = [];
  const start = async (offsetSeconds: number) => {
    const platform = await startPlatformProcess({ ...env, CLOCK_OFFSET_SECONDS: String(offsetSeconds) });
    running.push(platform);
    return platform;
  };
  const kill = async (platform: PlatformProcess) => {
    platform.child.kill('SIGKILL');
    await platform.exited;
  };
  try {
    const first = await start(0);
    const token = await devToken(url, dataDir);
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as any };
    };
    const channel = async (stage: number) =>
      (await api('POST', '/notification-channels', { name: `stage ${stage}`, type: 'webhook', config: { url: `${receiver.url}/stage${stage}`, method: 'POST', headers: {} } })).body.data.id as string;
    const [c1, c2, c3] = [await channel(1), await channel(2), await channel(3)];
    const policy = await api('POST', '/api/v1/escalation-policies', {
      name: 'kill test',
      stages: [
        { stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: c1 }] },
        { stage_order: 2, delay_minutes: 1, targets: [{ type: 'channel', id: c2 }] },
        { stage_order: 3, delay_minutes: 60, targets: [{ type: 'channel', id: c3 }] },
      ],
    });
    await api('POST', '/api/v1/simulator/metrics', { metric: 'queue_time_seconds', value: 99, duration_seconds: 86_400 });
    const rule = await api('POST', '/api/v1/alert-rules', {
      name: 'kill rule', metric: 'queue_time_seconds', condition: 'gt', threshold: 30, evaluation_window_minutes: 0, severity: 'high', escalation_policy_id: policy.body.data.id,
    });
    let incidentId = '';
    await waitFor(async () => (incidentId = (await api('GET', `/api/v1/incidents?rule_id=${rule.body.data.id}`)).body.data?.[0]?.id ?? '') !== '', { timeoutMs: 20_000, message: 'the incident' });
    const fired = async () => (await api('GET', `/api/v1/incidents/${incidentId}/events`)).body.data.filter((e: any) => e.type === 'EscalationStageFired').map((e: any) => e.data.stageOrder);
    const deliveredStages = async () => (await api('GET', `/api/v1/incidents/${incidentId}/events`)).body.data.filter((e: any) => e.type === 'NotificationDelivered').map((e: any) => e.data.stageOrder);
    await waitFor(async () => (await deliveredStages()).includes(1), { timeoutMs: 20_000, message: 'stage 1 delivered' });
    await kill(first);

    // Two minutes later: stage 2 is overdue and fires once.
    const second = await start(120);
    await waitFor(async () => (await deliveredStages()).includes(2), { timeoutMs: 20_000, message: 'stage 2 delivered after the restart' });
    await kill(second);

    // Half a minute after that: nothing is due (stage 3 is an hour after stage 2); the manager waits for it.
    const third = await start(150);
    await waitFor(async () => /escalation_pending 1\b/.test(await (await fetch(`${url}/metrics`)).text()), { timeoutMs: 20_000, message: 'the third platform waits for stage 3' });
    t.deepEqual(await fired(), [1, 2]);
    t.is(receiver.requests.filter((r) => r.path === '/stage1').length, 1);
    t.is(receiver.requests.filter((r) => r.path === '/stage2').length, 1);
    t.is(receiver.requests.filter((r) => r.path === '/stage3').length, 0);
    const pending = (await api('GET', '/api/v1/escalations')).body.data;
    t.deepEqual(pending.map((p: any) => p.next_stage), [3]);
  } finally {
    for (const platform of running) if (platform.child.exitCode === null) platform.child.kill('SIGKILL');
    await Promise.all(running.map((platform) => platform.exited));
    await receiver.stop();
  }
});
