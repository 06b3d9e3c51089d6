/**
 * Killing the platform between stages neither skips nor doubles a stage (the escalation issue's
 * "Done when"): real child processes, SIGKILL, restarts on the same DATA_DIR. The restarted
 * platforms run with their clock shifted (CLOCK_OFFSET_SECONDS) so stage 2 is due without waiting
 * a real minute.
 */
import test from 'ava';
import { startHttpReceiver } from './support/notify-receivers/http-receiver.js';
import { restartablePlatform } from './support/restartable-platform.js';
import { waitFor } from './support/wait-for.js';

const MINUTE_MS = 60_000;

test('SIGKILL between stages, twice: stage 2 fires exactly once after the restart and is not repeated by the next one', async (t) => {
  const receiver = await startHttpReceiver(() => ({ status: 204 }));
  const platform = await restartablePlatform('ww-escalation-kill-', { ALERT_EVALUATION_INTERVAL_SECONDS: '1' });
  const { start, kill, api, metric } = platform;
  /** The manager has settled on a timer for the next stage: everything due so far is done. */
  const waitingForNextStage = (message: string) =>
    waitFor(async () => (await metric('escalation_pending')) === 1, { timeoutMs: 20_000, message });
  try {
    const first = await start(0);
    const channel = async (stage: number) =>
      (
        await api('POST', '/notification-channels', {
          name: `stage ${stage}`,
          type: 'webhook',
          config: { url: `${receiver.url}/stage${stage}`, method: 'POST', headers: {} },
        })
      ).body.data.id as string;
    const [c1, c2, c3] = [await channel(1), await channel(2), await channel(3)];
    const policy = await api('POST', '/api/v1/escalation-policies', {
      name: 'kill test',
      stages: [
        { stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: c1 }] },
        { stage_order: 2, delay_minutes: 1, targets: [{ type: 'channel', id: c2 }] },
        { stage_order: 3, delay_minutes: 60, targets: [{ type: 'channel', id: c3 }] },
      ],
    });
    // A condition the simulated warehouse always meets: a pinned metric would not do, since pins live
    // in the process's memory and the restarted platform's evaluator would resolve the incident.
    const rule = await api('POST', '/api/v1/alert-rules', {
      name: 'kill rule',
      metric: 'queue_time_seconds',
      condition: 'gte',
      threshold: 0,
      evaluation_window_minutes: 0,
      severity: 'high',
      escalation_policy_id: policy.body.data.id,
    });
    let incidentId = '';
    await waitFor(
      async () =>
        (incidentId = (await api('GET', `/api/v1/incidents?rule_id=${rule.body.data.id}`)).body.data?.[0]?.id ?? '') !==
        '',
      { timeoutMs: 20_000, message: 'the incident' },
    );
    const events = async () =>
      (await api('GET', `/api/v1/incidents/${incidentId}/events`)).body.data as { type: string; data: any }[];
    const fired = async () => (await events()).filter((e) => e.type === 'EscalationStageFired').map((e) => e.data);
    const deliveredStages = async () =>
      (await events()).filter((e) => e.type === 'NotificationDelivered').map((e) => e.data.stageOrder);
    await waitFor(async () => (await deliveredStages()).includes(1), {
      timeoutMs: 20_000,
      message: 'stage 1 delivered',
    });
    await waitingForNextStage('the first platform waits for stage 2');
    await kill(first);

    // Two minutes later: stage 2 is overdue and fires once, late, from the restarted platform.
    const second = await start(120);
    await waitFor(async () => (await deliveredStages()).includes(2), {
      timeoutMs: 20_000,
      message: 'stage 2 delivered after the restart',
    });
    await waitingForNextStage('the second platform waits for stage 3');
    t.is(await metric('escalation_stages_fired_total'), 1, 'the second platform fired stage 2 and nothing else');
    t.is(await metric('escalation_stage_lateness_seconds_count'), 1);
    t.true(
      (await metric('escalation_stage_lateness_seconds_sum')) >= 60,
      'stage 2 was overdue when the second platform fired it',
    );
    await kill(second);

    // Half a minute after that: nothing is due (stage 3 is an hour after stage 2); the manager waits for it.
    await start(150);
    await waitingForNextStage('the third platform waits for stage 3');
    t.is(await metric('escalation_stages_fired_total'), 0, 'the third platform fired nothing');
    const [stage1, stage2, ...more] = await fired();
    t.deepEqual(more, []);
    t.deepEqual([stage1.stageOrder, stage2.stageOrder], [1, 2]);
    t.is(
      Date.parse(stage2.dueAt),
      Date.parse(stage1.firedAt) + MINUTE_MS,
      'stage 2 was due a minute after stage 1 fired',
    );
    t.true(
      Date.parse(stage2.firedAt) - Date.parse(stage2.dueAt) >= MINUTE_MS,
      'fired by the restarted platform, not before the kill',
    );
    t.deepEqual(await deliveredStages(), [1, 2], 'one delivery per stage: none made again');
    t.is(receiver.requests.filter((r) => r.path === '/stage1').length, 1);
    t.is(receiver.requests.filter((r) => r.path === '/stage2').length, 1);
    t.is(receiver.requests.filter((r) => r.path === '/stage3').length, 0);
    t.is((await api('GET', `/api/v1/incidents/${incidentId}`)).body.data.status, 'triggered');
    const pending = (await api('GET', '/api/v1/escalations')).body.data;
    t.deepEqual(
      pending.map((p: any) => [p.incident_id, p.next_stage, p.cycle, p.next_due_at]),
      [[incidentId, 3, 0, new Date(Date.parse(stage2.firedAt) + 60 * MINUTE_MS).toISOString()]],
    );
  } finally {
    await platform.stop();
    await receiver.stop();
  }
});
