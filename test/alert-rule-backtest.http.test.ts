/**
 * POST /api/v1/alert-rules/backtest on the real app in virtual time. The agreement test runs the
 * real evaluator one tick a virtual minute while the real cluster_metrics sync job mirrors the
 * warehouse each minute, then backtests the same rule over the same minutes from the relational
 * store and from the simulator's history: breach counts and incident starts and ends must be what
 * the evaluator did live. Then gaps (no rows: no incidents invented) and the HTTP contract.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { simulatedClusters } from '../src/gateways/warehouse/simulated/fleet.js';
import { simulatedMetricSeries } from '../src/gateways/warehouse/simulated/metric-history.js';
import { replayInstants, replayRule } from '../src/backtest/replay.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const MIN = 60_000;
const MINUTES = 45;
const WINDOW = 5;
const METRIC = 'query_runtime_seconds';
// Six hours back: a past the tokens (real time) do not mind, ticks on whole minutes.
const T0 = Math.floor(Date.now() / MIN) * MIN - 6 * 3_600_000;
let clock = T0;
let app: TestApp;

test.before(async () => {
  // The scheduled evaluator would tick on real time: a day's interval keeps it out of the way.
  app = await startTestApp({ now: () => new Date(clock), env: { ALERT_EVALUATION_INTERVAL_SECONDS: '86400' } });
  // The sync runs write to the embedded PostgreSQL: open it first, since its start blocks the event
  // loop for seconds (at load 20, inside the first minute's run, that ran past its deadline, and the
  // stall let a kept-alive connection close under the next test's request: ECONNRESET).
  await app.platform.syncStore.ping();
});
test.after.always(async () => app?.close());

const BACKTEST = '/api/v1/alert-rules/backtest';
const iso = (ms: number) => new Date(ms).toISOString();

async function policyFor(
  caller: Caller,
  stages = [
    { stage_order: 1, delay_minutes: 0 },
    { stage_order: 2, delay_minutes: 3 },
  ],
) {
  const channel = await app.request('POST', '/notification-channels', {
    caller,
    body: { name: 'ops', type: 'chat', config: { webhook_url: 'https://chat.example/hook', channel_name: '#ops' } },
  });
  const policy = await app.request('POST', '/api/v1/escalation-policies', {
    caller,
    body: {
      name: 'DBA',
      stages: stages.map((stage) => ({ ...stage, targets: [{ type: 'channel', id: channel.body.data.id }] })),
    },
  });
  if (policy.status !== 201) throw new Error(`policy: ${policy.status} ${JSON.stringify(policy.body)}`);
  return policy.body.data.id as string;
}

/**
 * A metric and threshold the simulated cluster crosses both ways in the minutes ahead, so the live
 * run has an incident that opens and resolves (chosen from the model; the assertions compare what
 * the evaluator did live with the backtest).
 */
function conditionFor(envId: string, clusterId: string, instants: number[]) {
  for (const metric of ['cpu_utilization_pct', 'queue_time_seconds', 'active_query_count', METRIC]) {
    const values = simulatedMetricSeries(
      { envId, clusterId, metric, windowMinutes: WINDOW },
      instants.map((at) => at / 1000),
    );
    for (const threshold of [...new Set(values)].sort((a, b) => a - b)) {
      const replay = replayRule(
        { condition: 'gt', threshold, windowMinutes: WINDOW },
        instants,
        values,
        instants.at(-1)!,
      );
      if (replay.incidents.some((i) => i.endedAt !== null) && replay.breaches < instants.length)
        return { metric, threshold };
    }
  }
  throw new Error('no metric and threshold give an incident that resolves in these minutes');
}

const ruleBody = (policyId: string, fields: Record<string, unknown> = {}) => ({
  name: 'Long runtime',
  metric: METRIC,
  condition: 'gt',
  threshold: 600,
  evaluation_window_minutes: WINDOW,
  severity: 'high',
  escalation_policy_id: policyId,
  ...fields,
});

async function syncMetricsNow(caller: Caller, envId: string, clusters: number) {
  const started = await app.request('POST', '/api/v1/sync/trigger', { caller, body: { job_id: 'cluster_metrics' } });
  if (started.status !== 202) throw new Error(`sync: ${started.status} ${JSON.stringify(started.body)}`);
  await waitFor(
    async () => {
      const [row] = await app.platform.syncStore.query<{ n: string }>(
        'SELECT count(*) AS n FROM cluster_metrics WHERE env_id = $1 AND sampled_at = $2',
        [envId, new Date(clock)],
      );
      if (Number(row!.n) < clusters * 7) return false;
      const running = await app.request('GET', '/api/v1/sync/history?job_id=cluster_metrics&status=running', {
        caller,
      });
      return running.body.data.length === 0;
    },
    // A deadline, not a wait: room for a machine at load 20.
    { timeoutMs: 120_000, message: 'the cluster_metrics run at this minute' },
  );
}

test.serial(
  'a backtest over recorded history agrees with what the evaluator did live over the same minutes',
  async (t) => {
    const caller = app.newTenant();
    const clusters = simulatedClusters(caller.envId);
    const clusterId = clusters[0]!.id;
    const ticks = replayInstants(T0 + MIN, T0 + MINUTES * MIN, MIN);
    const { metric, threshold } = conditionFor(caller.envId, clusterId, ticks);
    const policyId = await policyFor(caller);
    const created = await app.request('POST', '/api/v1/alert-rules', {
      caller,
      body: ruleBody(policyId, { metric, threshold, cluster_id: clusterId }),
    });
    t.is(created.status, 201);
    const rule = created.body.data;

    for (const at of ticks) {
      clock = at;
      await syncMetricsNow(caller, caller.envId, clusters.length);
      await app.platform.evaluator.tick();
    }

    // Live: the rule's recorded evaluations and its incidents.
    const history = (await app.request('GET', `/api/v1/alert-rules/${rule.id}/history?limit=500`, { caller })).body
      .data as any[];
    const recorded = history
      .map((h) => ({ at: Date.parse(h.at), conditionMet: h.condition_met as boolean }))
      .sort((a, b) => a.at - b.at);
    // The recording rule keeps changes and an hourly entry; an evaluation it skipped had the
    // condition of the recorded one before it (src/process/evaluation-record.ts).
    const liveBreaches = ticks.filter((at) => recorded.filter((r) => r.at <= at).at(-1)?.conditionMet).length;
    const incidents = (
      (await app.request('GET', `/api/v1/incidents?rule_id=${rule.id}`, { caller })).body.data as any[]
    )
      .map((i) => ({ started_at: i.triggered_at, ended_at: i.resolved_at ?? null }))
      .sort((a, b) => a.started_at.localeCompare(b.started_at));
    t.true(
      incidents.length > 0 && incidents.some((i) => i.ended_at !== null),
      'the live run opened and resolved an incident',
    );
    t.true(liveBreaches > 0 && liveBreaches < ticks.length);

    for (const source of ['sync_store', 'simulator']) {
      const answer = await app.request('POST', BACKTEST, {
        caller,
        body: { rule_id: rule.id, since: iso(ticks[0]!), until: iso(ticks.at(-1)!), step_seconds: 60, source },
      });
      t.is(answer.status, 200, JSON.stringify(answer.body));
      const data = answer.body.data;
      t.is(data.source, source);
      t.is(data.evaluations, ticks.length, source);
      t.is(data.missing_evaluations, 0, source);
      t.deepEqual(data.gaps, []);
      t.is(data.breaches, liveBreaches, `${source}: breaches`);
      t.deepEqual(
        data.incidents.map((i: any) => ({ started_at: i.started_at, ended_at: i.ended_at })),
        incidents,
        `${source}: incidents`,
      );
      // Stage 1 at the trigger, stage 2 three minutes later if still open; one channel target each.
      const expectedPages = data.incidents.reduce((sum: number, i: any) => {
        const open = (i.ended_at === null ? ticks.at(-1)! + 1 : Date.parse(i.ended_at)) - Date.parse(i.started_at);
        return sum + 1 + (open > 3 * MIN ? 1 : 0);
      }, 0);
      t.is(data.pages, expectedPages);
      t.true(data.incidents.every((i: any) => i.cluster_id === clusterId && i.peak_value > threshold));
    }

    // (b) Gaps: half an hour before the first sync run has no rows; nothing is invented there.
    const earlier = await app.request('POST', BACKTEST, {
      caller,
      body: {
        rule_id: rule.id,
        since: iso(T0 - 30 * MIN),
        until: iso(ticks.at(-1)!),
        step_seconds: 60,
        source: 'sync_store',
      },
    });
    t.is(earlier.status, 200);
    t.deepEqual(earlier.body.data.gaps, [{ from: iso(T0 - 30 * MIN), to: iso(ticks[0]!) }]);
    t.is(earlier.body.data.missing_evaluations, 31);
    t.is(earlier.body.data.breaches, liveBreaches);
    t.deepEqual(
      earlier.body.data.incidents.map((i: any) => i.started_at),
      incidents.map((i) => i.started_at),
    );

    const nothing = await app.request('POST', BACKTEST, {
      caller,
      body: {
        rule_id: rule.id,
        since: iso(T0 - 3 * 86_400_000),
        until: iso(T0 - 2 * 86_400_000),
        source: 'sync_store',
      },
    });
    t.is(nothing.status, 200);
    t.like(nothing.body.data, {
      evaluations: 0,
      breaches: 0,
      incidents: [],
      pages: 0,
      gaps: [{ from: iso(T0 - 3 * 86_400_000), to: iso(T0 - 2 * 86_400_000) }],
    });
  },
);

/**
 * An incident the rule would open at `s` with the condition holding at least two more minutes, so a
 * window over `s` moves it later instead of removing it (chosen from the model, unsilenced).
 */
function silenceableIncident(envId: string, clusterId: string, instants: number[]) {
  for (const metric of ['cpu_utilization_pct', 'queue_time_seconds', 'active_query_count', METRIC]) {
    const values = simulatedMetricSeries(
      { envId, clusterId, metric, windowMinutes: WINDOW },
      instants.map((at) => at / 1000),
    );
    for (const threshold of [...new Set(values)].sort((a, b) => a - b)) {
      const replay = replayRule(
        { condition: 'gt', threshold, windowMinutes: WINDOW },
        instants,
        values,
        instants.at(-1)!,
      );
      const incident = replay.incidents.find(
        (i) =>
          i.startedAt >= instants[2]! &&
          (i.endedAt === null ? i.startedAt + 2 * MIN <= instants.at(-1)! : i.endedAt - i.startedAt >= 3 * MIN),
      );
      if (incident) return { metric, threshold, startedAt: incident.startedAt };
    }
  }
  throw new Error('no metric and threshold give an incident that holds for three minutes in these minutes');
}

for (const stop of ['end', 'delete'] as const)
  test.serial(
    `maintenance windows: the backtest silences what the live evaluator silenced, and the incident opens when a window stopped early (${stop})`,
    async (t) => {
      const caller = app.newTenant();
      const clusterId = simulatedClusters(caller.envId)[0]!.id;
      const ticks = replayInstants(clock + MIN, clock + MINUTES * MIN, MIN);
      const { metric, threshold, startedAt: s } = silenceableIncident(caller.envId, clusterId, ticks);
      const policyId = await policyFor(caller);
      const rule = (
        await app.request('POST', '/api/v1/alert-rules', {
          caller,
          body: ruleBody(policyId, { metric, threshold, cluster_id: clusterId }),
        })
      ).body.data;
      // Planned for [s - 1 min, s + 3 min), stopped by hand half a minute after s: live, it silenced s - 1 and s.
      const window = await app.request('POST', '/api/v1/maintenance-windows', {
        caller,
        body: {
          name: 'Resize',
          reason: 'elastic resize',
          matcher: { rule_ids: [rule.id] },
          starts_at: iso(s - MIN),
          ends_at: iso(s + 3 * MIN),
        },
      });
      t.is(window.status, 201, JSON.stringify(window.body));
      // Another tenant-wide window the rule does not match (its severity is high) silences nothing.
      t.is(
        (
          await app.request('POST', '/api/v1/maintenance-windows', {
            caller,
            body: {
              name: 'Low only',
              reason: 'not this rule',
              matcher: { severities: ['low'] },
              starts_at: iso(ticks[0]!),
              ends_at: iso(ticks.at(-1)! + MIN),
            },
          })
        ).status,
        201,
      );

      for (const at of ticks) {
        clock = at;
        await app.platform.evaluator.tick();
        if (at === s) {
          clock = s + 30_000;
          // Ended early, or deleted: either way the evaluator stopped seeing it then.
          const stopped =
            stop === 'end'
              ? await app.request('POST', `/api/v1/maintenance-windows/${window.body.data.id}/end`, { caller })
              : await app.request('DELETE', `/api/v1/maintenance-windows/${window.body.data.id}`, { caller });
          t.is(stopped.status, 200, JSON.stringify(stopped.body));
        }
      }

      const live = ((await app.request('GET', `/api/v1/incidents?rule_id=${rule.id}`, { caller })).body.data as any[])
        .map((i) => ({ started_at: i.triggered_at, ended_at: i.resolved_at ?? null }))
        .sort((a, b) => a.started_at.localeCompare(b.started_at));
      const history = (await app.request('GET', `/api/v1/alert-rules/${rule.id}/history?limit=500`, { caller })).body
        .data as any[];
      t.true(
        history.some((h) => h.outcome === 'silenced' && h.window_id === window.body.data.id),
        'the live evaluator silenced',
      );
      t.false(
        live.some((i) => Date.parse(i.started_at) >= s - MIN && Date.parse(i.started_at) < s + MIN),
        'no live incident inside the window',
      );
      t.true(
        live.some((i) => i.started_at === iso(s + MIN)),
        `live: the incident opens at the first evaluation after the window ended: ${JSON.stringify(live)}`,
      );

      const answer = await app.request('POST', BACKTEST, {
        caller,
        body: {
          rule_id: rule.id,
          since: iso(ticks[0]!),
          until: iso(ticks.at(-1)!),
          step_seconds: 60,
          source: 'simulator',
        },
      });
      t.is(answer.status, 200, JSON.stringify(answer.body));
      const data = answer.body.data;
      t.deepEqual(
        data.incidents.map((i: any) => ({ started_at: i.started_at, ended_at: i.ended_at })),
        live,
        'the backtest agrees with the evaluator',
      );
      t.is(data.silenced, 2);
      t.deepEqual(data.silenced_by, [{ window_id: window.body.data.id, name: 'Resize', evaluations: 2 }]);

      // The same rule as an unsaved body: a window naming rule ids cannot match it, and the answer says so.
      const unsaved = await app.request('POST', BACKTEST, {
        caller,
        body: {
          rule: ruleBody(policyId, { metric, threshold, cluster_id: clusterId }),
          since: iso(ticks[0]!),
          until: iso(ticks.at(-1)!),
          step_seconds: 60,
        },
      });
      t.is(unsaved.status, 200);
      t.is(unsaved.body.data.silenced, 0);
      t.true(unsaved.body.data.incidents.some((i: any) => i.started_at === iso(s)));
      t.true(unsaved.body.data.notes.some((n: string) => n.includes('rule ids')));
    },
  );

test.serial(
  'an unsaved rule body is backtested from the simulator by default (embedded); the future is not history',
  async (t) => {
    const caller = app.newTenant();
    const policyId = await policyFor(caller, [{ stage_order: 1, delay_minutes: 0 }]);
    const clusterId = simulatedClusters(caller.envId)[0]!.id;
    const since = clock - 24 * 3_600_000;
    const answer = await app.request('POST', BACKTEST, {
      caller,
      body: {
        rule: ruleBody(policyId, { threshold: 0, evaluation_window_minutes: 0, cluster_id: clusterId }),
        since: iso(since),
        until: iso(clock + 10 * MIN),
        step_seconds: 60,
        include_readings: true,
      },
    });
    t.is(answer.status, 200, JSON.stringify(answer.body));
    const data = answer.body.data;
    t.like(data, {
      source: 'simulator',
      step_seconds: 60,
      rule: { id: null, metric: METRIC, threshold: 0, cluster_id: clusterId },
    });
    t.is(data.evaluations + data.missing_evaluations, 24 * 60 + 10 + 1);
    t.deepEqual(data.gaps, [{ from: iso(clock + MIN), to: iso(clock + 10 * MIN) }], 'instants after now are missing');
    t.true(data.notes.some((n: string) => n.includes('acknowledge')));
    const pagesFromIncidents = data.incidents.reduce((sum: number, i: any) => sum + i.pages, 0);
    t.is(data.pages, pagesFromIncidents);
    // The readings for a chart: every instant, the simulator's value, null in the future.
    t.is(data.readings.length, 24 * 60 + 10 + 1);
    const values = simulatedMetricSeries({ envId: caller.envId, clusterId, metric: METRIC, windowMinutes: 1 }, [
      since / 1000,
      (since + MIN) / 1000,
    ]);
    t.deepEqual(data.readings.slice(0, 2), [
      { at: iso(since), value: values[0] },
      { at: iso(since + MIN), value: values[1] },
    ]);
    t.deepEqual(data.readings.at(-1), { at: iso(clock + 10 * MIN), value: null });
    t.is(data.breaches, data.readings.filter((r: any) => r.value !== null && r.value > 0).length);
  },
);

test.serial("refusals: the range, the body, another tenant's rule", async (t) => {
  const caller = app.newTenant();
  const policyId = await policyFor(caller);
  const rule = (await app.request('POST', '/api/v1/alert-rules', { caller, body: ruleBody(policyId) })).body.data;
  const since = clock - 40 * 86_400_000;
  const cases: [string, unknown, string][] = [
    ['more than 31 days', { rule_id: rule.id, since: iso(since), until: iso(since + 31 * 86_400_000 + MIN) }, '/until'],
    ['until before since', { rule_id: rule.id, since: iso(since), until: iso(since - MIN) }, '/until'],
    ['until equal to since', { rule_id: rule.id, since: iso(since), until: iso(since) }, '/until'],
    ['neither rule_id nor rule', { since: iso(since), until: iso(since + MIN) }, '/rule_id'],
    [
      'both rule_id and rule',
      { rule_id: rule.id, rule: ruleBody(policyId), since: iso(since), until: iso(since + MIN) },
      '/rule_id',
    ],
    [
      'a rule body without a name',
      { rule: { ...ruleBody(policyId), name: undefined }, since: iso(since), until: iso(since + MIN) },
      '/rule/name',
    ],
    [
      'a rule body with an unknown metric',
      { rule: ruleBody(policyId, { metric: 'nope' }), since: iso(since), until: iso(since + MIN) },
      '/rule/metric',
    ],
    [
      "a rule body naming another tenant's policy",
      { rule: ruleBody(randomUUID()), since: iso(since), until: iso(since + MIN) },
      '/rule/escalation_policy_id',
    ],
    [
      'a source this deployment does not have',
      { rule_id: rule.id, since: iso(since), until: iso(since + MIN), source: 'elsewhere' },
      '/source',
    ],
    [
      'a step under a minute',
      { rule_id: rule.id, since: iso(since), until: iso(since + MIN), step_seconds: 10 },
      '/step_seconds',
    ],
    ['since not an instant', { rule_id: rule.id, since: 'yesterday', until: iso(since) }, '/since'],
  ];
  for (const [name, body, path] of cases) {
    const answer = await app.request('POST', BACKTEST, { caller, body });
    t.is(answer.status, 400, name);
    t.regex(answer.headers.get('content-type') ?? '', /application\/problem\+json/, name);
    t.true(
      (answer.body.errors ?? []).some((e: any) => e.path === path),
      `${name}: ${JSON.stringify(answer.body.errors)}`,
    );
  }
  t.is(
    (
      await app.request('POST', BACKTEST, {
        caller,
        body: { rule_id: rule.id, since: iso(since), until: iso(since + 31 * 86_400_000) },
      })
    ).status,
    200,
    '31 days exactly',
  );

  const other = app.newTenant();
  const foreign = await app.request('POST', BACKTEST, {
    caller: other,
    body: { rule_id: rule.id, since: iso(since), until: iso(since + MIN) },
  });
  t.is(foreign.status, 404);
  const unknown = await app.request('POST', BACKTEST, {
    caller,
    body: { rule_id: randomUUID(), since: iso(since), until: iso(since + MIN) },
  });
  t.is(unknown.status, 404);
  const viewer = await app.request('POST', BACKTEST, {
    caller: { ...caller, roles: ['viewer'] },
    body: { rule_id: rule.id, since: iso(since), until: iso(since + 60 * MIN) },
  });
  t.is(viewer.status, 200, 'alerts:read is enough: a backtest changes nothing');
});

test.serial(
  'a tenant runs at most two backtests at once (HEAVY_REQUESTS_PER_TENANT by default); the others get a 429 with Retry-After, and the slots come back',
  async (t) => {
    const caller = app.newTenant();
    const policyId = await policyFor(caller);
    const rule = (await app.request('POST', '/api/v1/alert-rules', { caller, body: ruleBody(policyId) })).body.data;
    const body = { rule_id: rule.id, since: iso(clock - 31 * 86_400_000), until: iso(clock), step_seconds: 60 };
    const answers = await Promise.all(Array.from({ length: 6 }, () => app.request('POST', BACKTEST, { caller, body })));
    const statuses = answers.map((a) => a.status).sort();
    t.true(statuses.filter((s) => s === 200).length >= 2, statuses.join());
    const refused = answers.filter((a) => a.status === 429);
    t.true(refused.length > 0, statuses.join());
    t.is(refused[0]!.headers.get('retry-after'), '1');
    t.regex(refused[0]!.headers.get('content-type') ?? '', /application\/problem\+json/);
    // Once they have answered, the slots are given back.
    t.is(
      (await app.request('POST', BACKTEST, { caller, body: { ...body, since: iso(clock - 3_600_000) } })).status,
      200,
    );
  },
);
