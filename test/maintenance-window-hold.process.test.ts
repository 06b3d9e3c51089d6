/**
 * A maintenance window holds an open incident's remaining escalation stages, across SIGKILLs: real
 * child processes on one DATA_DIR, killed with SIGKILL while the stages are held, restarted with
 * their clock shifted (CLOCK_OFFSET_SECONDS) so the window's end comes without waiting for it.
 * The hold and the resume are events on the incident's stream, read back after each restart; stage
 * 2 fires exactly once, after the window, and the history says why it waited.
 */
import test from 'ava';
import { startHttpReceiver } from './support/notify-receivers/http-receiver.js';
import { restartablePlatform } from './support/restartable-platform.js';
import { waitFor } from './support/wait-for.js';

const MINUTE_MS = 60_000;
/** A start-up is mostly module loading: seconds on a quiet machine, tens of them on a busy one. */
const START_TIMEOUT_MS = 90_000;

test('SIGKILL while stages are held: after the window ends the held stage fires exactly once, and the history shows the hold and the resume', async (t) => {
  const receiver = await startHttpReceiver(() => ({ status: 204 }));
  const platform = await restartablePlatform(
    'ww-window-hold-',
    { ALERT_EVALUATION_INTERVAL_SECONDS: '1' },
    { startTimeoutMs: START_TIMEOUT_MS },
  );
  const { start, kill, api, metric } = platform;
  /** The manager has settled on one timer (the window's end, or the next stage): everything due is done. */
  const settled = (message: string) =>
    waitFor(async () => (await metric('escalation_pending')) === 1, { timeoutMs: 30_000, message });
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
      name: 'held',
      stages: [
        { stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: c1 }] },
        { stage_order: 2, delay_minutes: 1, targets: [{ type: 'channel', id: c2 }] },
        { stage_order: 3, delay_minutes: 60, targets: [{ type: 'channel', id: c3 }] },
      ],
    });
    // Always met on the simulated warehouse (a pin would not survive the restarts).
    const rule = await api('POST', '/api/v1/alert-rules', {
      name: 'held rule',
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
      { timeoutMs: 30_000, message: 'the incident' },
    );
    const events = async () =>
      (await api('GET', `/api/v1/incidents/${incidentId}/events`)).body.data as { type: string; data: any }[];
    const firedStages = async () =>
      (await events()).filter((e) => e.type === 'EscalationStageFired').map((e) => e.data.stageOrder);
    await waitFor(async () => (await firedStages()).includes(1), { timeoutMs: 30_000, message: 'stage 1 fired' });

    // The window: from a minute ago to ten minutes from now, on this rule.
    const now = Date.now();
    const window = await api('POST', '/api/v1/maintenance-windows', {
      name: 'resize',
      reason: 'planned resize',
      matcher: { rule_ids: [rule.body.data.id] },
      starts_at: new Date(now - MINUTE_MS).toISOString(),
      ends_at: new Date(now + 10 * MINUTE_MS).toISOString(),
    });
    t.is(window.status, 201, JSON.stringify(window.body));
    const windowId = window.body.data.id;
    await waitFor(async () => (await events()).some((e) => e.type === 'EscalationHeld'), {
      timeoutMs: 30_000,
      message: 'the escalation held',
    });
    t.is((await api('GET', `/api/v1/incidents/${incidentId}`)).body.data.escalation.held_by_window_id, windowId);
    await kill(first);

    // Two minutes on: stage 2 would be overdue, but the window still holds it, after a restart too.
    const second = await start(120);
    await settled("the second platform waits for the window's end");
    t.is(await metric('escalation_stages_fired_total'), 0, 'nothing fires while held');
    t.deepEqual(await firedStages(), [1]);
    await kill(second);

    // Eleven minutes on: the window is over; the held stage fires once, the resume recorded first.
    const third = await start(11 * 60);
    await waitFor(async () => (await firedStages()).includes(2), {
      timeoutMs: 30_000,
      message: 'stage 2 fired after the window',
    });
    await settled('the third platform waits for stage 3');
    t.is(await metric('escalation_stages_fired_total'), 1, 'the third platform fired stage 2 and nothing else');

    const story = (await events()).filter((e) =>
      ['EscalationStageFired', 'EscalationHeld', 'EscalationResumed'].includes(e.type),
    );
    t.deepEqual(
      story.map((e) => e.type),
      ['EscalationStageFired', 'EscalationHeld', 'EscalationResumed', 'EscalationStageFired'],
    );
    t.like(story[1]!.data, { windowId, nextStageOrder: 2, nextCycle: 0 });
    t.like(story[2]!.data, { windowId });
    t.true(Date.parse(story[2]!.data.at) >= now + 10 * MINUTE_MS, 'resumed once the window had ended');
    t.is(receiver.requests.filter((r) => r.path === '/stage1').length, 1);
    t.is(receiver.requests.filter((r) => r.path === '/stage2').length, 1, 'the held stage was delivered exactly once');
    t.is(receiver.requests.filter((r) => r.path === '/stage3').length, 0);
    await kill(third);
  } finally {
    await platform.stop();
    await receiver.stop();
  }
});
