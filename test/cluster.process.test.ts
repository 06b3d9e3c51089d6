/**
 * Issue 28: three platform processes on one EventStoreDB and one MongoDB (the protocol stand-ins as
 * processes of their own by default; real servers when EVENTSTORE_URL and MONGODB_URL are both set)
 * share 2,000 alert rules, page every breach exactly once, survive a kill -9 of one of them in the
 * middle of an escalation, and take it back when it returns.
 *
 * The run is "over 5 minutes"; this one compresses time to about 3: evaluation every 5 s
 * (ALERT_EVALUATION_INTERVAL_SECONDS) and stage 2 one minute after stage 1, the shortest delay a
 * policy allows (delay_minutes is whole minutes). The steps run in order on one cluster; each names
 * what it checks, so a failing step says which guarantee is missing, and later steps still run
 * (a step stops at its first failed assertion). The kill comes right after stage 1, so it falls
 * within the minute before stage 2; the steady-state counts are taken last, on three members again.
 * Every wait has a deadline.
 */
import test from 'ava';
import { chooseClusterBackends, startClusterBackends, type ClusterBackends } from './support/cluster-backends.js';
import { startCluster, type Cluster } from './support/cluster-harness.js';
import {
  breachingRules,
  createPagingSetup,
  createRules,
  distinctReads,
  pagesOf,
  quietRules,
  stagePages,
  type PagingSetup,
  type RuleBody,
} from './support/cluster-workload.js';
import type { Metrics } from './support/prometheus-text.js';
import { connectSse } from './support/sse-client.js';
import type { Caller } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const SIZE = 3;
const INTERVAL_SECONDS = 5;
/**
 * 400 rules by default: every property below (each rule evaluated once per tick by one member,
 * takeover, each stage paged once) holds at any count, and creating 2,000 through the API took
 * 150 s of a 2-core CI run. CLUSTER_TEST_RULES=2000 runs the scale of the cluster issue; the
 * figures at scale are bench/cluster.ts's.
 */
const RULES = Number(process.env.CLUSTER_TEST_RULES ?? 400);
const BREACHING = 20;
/** Creating rules through the API, all three instances evaluating them meanwhile: ~10/s on a loaded 2-core machine. */
const CREATE_TIMEOUT_MS = 60_000 + RULES * 150;
const STAGE_2_DELAY_MS = 60_000;
/**
 * The bound for a takeover: one evaluation interval + 10 s (the lease), plus slack for what
 * the bound does not count on a loaded 2-core machine: the tick reading its rules before it reports
 * them, and the /metrics scrapes that observe it (2 s was not enough under a CI load of 13).
 */
const TAKEOVER_MS = (INTERVAL_SECONDS + 10) * 1000 + 5000;
const INSTANCES = [0, 1, 2];

const choice = chooseClusterBackends();

interface World {
  backends: ClusterBackends;
  cluster: Cluster;
  caller: Caller;
  paging: PagingSetup;
  sse: ReturnType<typeof connectSse>[];
  rules: RuleBody[];
  ruleIds: string[];
  breachingIds: string[];
  incidents: { id: string; rule_id: string; triggered_at: string }[];
  victim: number;
  killedAt: number;
  /** Lateness histogram counts of the survivors just before the kill. */
  latenessCountsBeforeKill: number;
}
const world: Partial<World> = {};
const need = <K extends keyof World>(key: K): World[K] => {
  if (world[key] === undefined) throw new Error(`an earlier step did not get as far as ${key}`);
  return world[key] as World[K];
};

const all = (cluster: Cluster, indexes: number[]) => Promise.all(indexes.map((i) => cluster.metrics(i)));
const sumOver = (snapshots: Metrics[], name: string, labels?: Record<string, string>) =>
  snapshots.reduce((sum, m) => sum + m.sum(name, labels), 0);

/**
 * Per tick, across `indexes`: warehouse reads and rule evaluations, over a window of at least
 * `ticks` ticks of every instance. Each instance's ratio is its own (reads and the tick counter move
 * together at the start of a tick, evaluations and the tick-duration count at its end), so the
 * moments the snapshots are taken need not line up with the ticks.
 */
async function perTick(cluster: Cluster, indexes: number[], ticks: number) {
  // A window is counted only while membership and ownership hold still: across a change (a member
  // whose lease renewal was late on a loaded machine, a hand-over) each instance's own average spans
  // ticks with different shares, and their sum is not the rule count (1966.67 for 2,000 once) —
  // an artefact of measuring across the change, not a rule evaluated twice or skipped.
  for (let attempt = 1; ; attempt++) {
    const window = await tickWindow(cluster, indexes, ticks);
    if (window.steady || attempt === 5) return window;
  }
}

const shareOf = (m: Metrics) => `${m.sum('cluster_members')}/${m.sum('cluster_owned_work', { kind: 'rules' })}`;

async function tickWindow(cluster: Cluster, indexes: number[], ticks: number) {
  const before = await all(cluster, indexes);
  await waitFor(
    async () => {
      const now = await all(cluster, indexes);
      return now.every(
        (m, i) =>
          m.sum('evaluator_tick_duration_seconds_count') - before[i]!.sum('evaluator_tick_duration_seconds_count') >=
            ticks && m.sum('evaluator_ticks_total') - before[i]!.sum('evaluator_ticks_total') >= ticks,
      );
    },
    {
      timeoutMs: (ticks + 1) * 4 * INTERVAL_SECONDS * 1000 + 30_000,
      intervalMs: 500,
      message: `${ticks} ticks on instances ${indexes.join(', ')}`,
    },
  );
  const after = await all(cluster, indexes);
  const rows = indexes.map((index, i) => {
    const delta = (name: string) => after[i]!.sum(name) - before[i]!.sum(name);
    return {
      instance: index,
      reads: delta('evaluator_warehouse_reads_total') / delta('evaluator_ticks_total'),
      evaluations: delta('evaluator_rules_evaluated_total') / delta('evaluator_tick_duration_seconds_count'),
    };
  });
  const steady = before.every((m, i) => shareOf(m) === shareOf(after[i]!));
  return {
    rows,
    steady,
    reads: rows.reduce((s, r) => s + r.reads, 0),
    evaluations: rows.reduce((s, r) => s + r.evaluations, 0),
  };
}

if (choice.mode === 'skip') {
  test.skip(`cluster of three processes: skipped, ${choice.reason}`, () => {});
} else {
  test.before(async (t) => {
    t.timeout(180_000);
    world.backends = await startClusterBackends(choice);
    world.cluster = await startCluster({ size: SIZE, backends: world.backends, intervalSeconds: INTERVAL_SECONDS });
    world.caller = world.cluster.newTenant();
    world.paging = await createPagingSetup(world.cluster, world.caller, 0);
    // Bearer tokens here; the ticket step opens its own stream with a ticket.
    world.sse = INSTANCES.map((i) =>
      connectSse(`${world.cluster!.instances[i]!.url}/api/v1/incidents/stream`, {
        authorization: `Bearer ${world.cluster!.token(world.caller!)}`,
      }),
    );
    t.log(`backends: ${world.backends.mode} (${world.backends.eventStoreUrl}, ${world.backends.mongoUrl})`);
  });

  test.after.always(async () => {
    // The killed instance's stream ended with a reset, which its close() reports: not this hook's concern.
    await Promise.all((world.sse ?? []).map((client) => client.close().catch(() => {})));
    // A real server's log outlives the run: delete the rules, or the next run's evaluators would evaluate them.
    if (world.backends?.mode === 'real' && world.cluster && world.ruleIds) {
      const live = INSTANCES.find((i) => world.cluster!.instances[i]!.process) ?? 0;
      for (const id of world.ruleIds)
        await world.cluster.api(live, 'DELETE', `/api/v1/alert-rules/${id}`, { caller: world.caller }).catch(() => {});
    }
    await world.cluster?.stop();
    await world.paging?.receiver.stop();
    await world.backends?.stop();
  });

  test.serial(
    'a write on instance A is seen by a read on instance B that sends back its X-Read-Position',
    async (t) => {
      const cluster = need('cluster');
      const caller = need('caller');
      for (let round = 0; round < 6; round++) {
        const [a, b] = [round % SIZE, (round + 1) % SIZE];
        const written = await cluster.api(a, 'POST', '/api/v1/notification-channels', {
          caller,
          body: {
            name: `ryw-${round}`,
            type: 'chat',
            config: { webhook_url: 'https://chat.example/hook', channel_name: '#ops' },
          },
        });
        t.is(written.status, 201, JSON.stringify(written.body));
        const position = written.headers.get('x-read-position');
        if (!t.regex(position ?? '', /^\d+$/, `instance ${a}'s answer to a write carries X-Read-Position`)) return;
        const read = await cluster.api(b, 'GET', `/api/v1/notification-channels/${written.body.data.id}`, {
          caller,
          headers: { 'x-min-read-position': position! },
        });
        t.is(read.status, 200, `instance ${b} answers the read with the write in it: ${JSON.stringify(read.body)}`);
        t.is(read.body?.data?.name, `ryw-${round}`);
      }
    },
  );

  test.serial('a stream ticket issued by instance A opens the incident stream on instance B', async (t) => {
    const cluster = need('cluster');
    const issued = await cluster.api(0, 'POST', '/api/v1/stream-tickets', {
      caller: need('caller'),
      body: { path: '/api/v1/incidents/stream' },
    });
    t.is(issued.status, 201, JSON.stringify(issued.body));
    const stream = connectSse(
      `${cluster.instances[1]!.url}/api/v1/incidents/stream?ticket=${encodeURIComponent(issued.body.data.ticket)}`,
      {},
    );
    try {
      await waitFor(() => stream.status() !== 0, { timeoutMs: 10_000, message: 'the answer to the ticket' });
      t.is(stream.status(), 200, 'instance 1 accepts the ticket instance 0 issued');
    } finally {
      await stream.close();
    }
  });

  test.serial(
    `${RULES} rules, ${BREACHING} of them breaching, are created through the API of all three instances`,
    async (t) => {
      t.timeout(CREATE_TIMEOUT_MS);
      const cluster = need('cluster');
      const { policyId } = need('paging');
      const quiet = quietRules(RULES - BREACHING, policyId);
      const breaching = breachingRules(BREACHING, policyId);
      const started = Date.now();
      // The quiet ones first: the breaching ones open their incidents once everything is in place.
      const quietIds = await createRules(cluster, need('caller'), quiet, INSTANCES, 32);
      world.breachingIds = await createRules(cluster, need('caller'), breaching, INSTANCES);
      world.rules = [...quiet, ...breaching];
      world.ruleIds = [...quietIds, ...world.breachingIds];
      t.log(`created ${RULES} rules in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      t.is(new Set(world.ruleIds).size, RULES);
    },
  );

  test.serial('every breaching rule opens exactly one incident, in the list and in the incident streams', async (t) => {
    t.timeout(120_000);
    const cluster = need('cluster');
    const caller = need('caller');
    const breachingIds = need('breachingIds');
    const list = async () =>
      (await cluster.api(0, 'GET', '/api/v1/incidents?limit=200', { caller })).body.data as World['incidents'];
    await waitFor(async () => (await list()).length >= BREACHING, {
      timeoutMs: 3 * INTERVAL_SECONDS * 1000 + 60_000,
      intervalMs: 500,
      message: `${BREACHING} incidents`,
    });
    // One more tick on every instance: an instance that opened a second incident for a rule would show it now.
    await perTick(cluster, INSTANCES, 1);
    const incidents = await list();
    world.incidents = incidents;
    t.is(incidents.length, BREACHING, 'one incident per breaching rule, none for the quiet ones');
    t.deepEqual(
      incidents.map((i) => i.rule_id).sort(),
      [...breachingIds].sort(),
      'the incidents are those of the breaching rules',
    );
    for (const incident of incidents) {
      const events = (await cluster.api(1, 'GET', `/api/v1/incidents/${incident.id}/events`, { caller })).body.data as {
        type: string;
      }[];
      t.is(
        events.filter((e) => e.type === 'IncidentTriggered').length,
        1,
        `incident ${incident.id} was triggered once on its stream`,
      );
    }
  });

  test.serial('stage 1 of every incident is paged exactly once (by delivery key)', async (t) => {
    const { receiver } = need('paging');
    const incidents = need('incidents');
    await waitFor(() => incidents.every((i) => stagePages(pagesOf(receiver), i.id, 1).length > 0), {
      timeoutMs: 30_000,
      intervalMs: 250,
      message: 'stage 1 of every incident',
    });
    const pages = pagesOf(receiver);
    for (const incident of incidents) {
      const stage1 = stagePages(pages, incident.id, 1);
      t.is(
        stage1.length,
        1,
        `incident ${incident.id}: stage 1 received ${stage1.length} times (keys ${stage1.map((p) => p.deliveryId).join(', ')})`,
      );
    }
    t.deepEqual(receiver.refusals, [], 'the receiver refused no request (signature, replay)');
  });

  test.serial(
    'kill -9 of one instance after stage 1: the survivors take its rules and incidents within one interval + 10 s',
    async (t) => {
      t.timeout(120_000);
      const cluster = need('cluster');
      const incidents = need('incidents');
      const { receiver } = need('paging');
      const before = await all(cluster, INSTANCES);
      // The victim is the instance owning the most incidents (instance 1 when nobody says).
      const owned = before.map((m) => m.sum('cluster_owned_work', { kind: 'incidents' }));
      const victim = owned.some((n) => n > 0) ? owned.indexOf(Math.max(...owned)) : 1;
      const survivors = INSTANCES.filter((i) => i !== victim);
      const firstStage2Due = Math.min(...incidents.map((i) => Date.parse(i.triggered_at) + STAGE_2_DELAY_MS));
      world.latenessCountsBeforeKill = survivors.reduce(
        (sum, i) => sum + before[i]!.sum('escalation_stage_lateness_seconds_count'),
        0,
      );
      const stage2PagedBefore = pagesOf(receiver).filter((p) => p.stageOrder === 2).length;
      t.log(
        `killing instance ${victim} (incidents owned per instance: ${owned.join(', ')}), ${firstStage2Due - Date.now()} ms before the first stage 2 is due`,
      );
      world.victim = victim;
      world.killedAt = Date.now();
      await cluster.kill9(victim);
      // Assertions stop a step where they fail (AVA 6+): the kill and what later steps need come first.
      t.true(
        world.killedAt < firstStage2Due - 2000,
        `the kill came before stage 2 was due (${firstStage2Due - world.killedAt} ms left)`,
      );
      t.is(stage2PagedBefore, 0, 'no stage 2 was paged before the kill');

      let takeoverMs: number | null = null;
      try {
        await waitFor(
          async () => {
            const now = await all(cluster, survivors);
            return (
              now.every((m) => m.sum('cluster_members') === SIZE - 1) &&
              sumOver(now, 'cluster_owned_work', { kind: 'rules' }) === RULES
            );
          },
          { timeoutMs: TAKEOVER_MS, intervalMs: 250, message: 'two members that own all the rules between them' },
        );
        takeoverMs = Date.now() - world.killedAt;
      } catch (error) {
        const now = await all(cluster, survivors);
        t.fail(
          `${(error as Error).message}: cluster_members ${now.map((m) => (m.has('cluster_members') ? m.sum('cluster_members') : 'not exported')).join(', ')}; rules owned ${now.map((m) => m.sum('cluster_owned_work', { kind: 'rules' })).join(' + ')} of ${RULES}`,
        );
        return;
      }
      t.log(`takeover after ${takeoverMs} ms`);
      const now = await all(cluster, survivors);
      t.true(
        sumOver(now, 'cluster_owned_work', { kind: 'incidents' }) >= incidents.length,
        'the survivors own every open incident',
      );
    },
  );

  test.serial(
    'stage 2 of every incident is paged exactly once after the kill, none skipped or doubled, and its lateness is reported',
    async (t) => {
      t.timeout(150_000);
      const cluster = need('cluster');
      const incidents = need('incidents');
      const { receiver } = need('paging');
      const survivors = INSTANCES.filter((i) => i !== need('victim'));
      const dueAt = new Map(incidents.map((i) => [i.id, Date.parse(i.triggered_at) + STAGE_2_DELAY_MS]));
      const lastDue = Math.max(...dueAt.values());
      await waitFor(() => incidents.every((i) => stagePages(pagesOf(receiver), i.id, 2).length > 0), {
        timeoutMs: Math.max(0, lastDue - Date.now()) + TAKEOVER_MS + 30_000,
        intervalMs: 250,
        message: 'stage 2 of every incident',
      }).catch((error: Error) =>
        t.fail(
          `${error.message}: ${incidents.filter((i) => stagePages(pagesOf(receiver), i.id, 2).length === 0).length} incidents have no stage 2`,
        ),
      );
      // A stage page is made again only while its outcome is missing from the incident's stream (a
      // crash mid-delivery): once every stage 2 outcome is recorded, no second page can follow.
      const stage2Recorded = async (incidentId: string) => {
        const answer = await cluster.api(survivors[0]!, 'GET', `/api/v1/incidents/${incidentId}`, {
          caller: need('caller'),
        });
        return ((answer.body?.data?.escalation?.notified ?? []) as { kind: string; stage_order: number | null }[]).some(
          (n) => n.kind === 'stage' && n.stage_order === 2,
        );
      };
      await waitFor(async () => (await Promise.all(incidents.map((i) => stage2Recorded(i.id)))).every(Boolean), {
        timeoutMs: 30_000,
        intervalMs: 250,
        message: 'every stage 2 outcome recorded on its incident',
      });
      const pages = pagesOf(receiver);
      const lateness: number[] = [];
      for (const incident of incidents) {
        for (const stage of [1, 2]) {
          const received = stagePages(pages, incident.id, stage);
          t.is(received.length, 1, `incident ${incident.id} stage ${stage}: received ${received.length} times`);
        }
        const stage2 = stagePages(pages, incident.id, 2)[0];
        if (stage2) lateness.push((stage2.receivedAt - dueAt.get(incident.id)!) / 1000);
      }
      t.deepEqual(receiver.refusals, [], 'the receiver refused no request');
      lateness.sort((a, b) => a - b);
      t.log(
        `stage 2 lateness at the receiver (s): p50 ${lateness[Math.floor(lateness.length / 2)]?.toFixed(2)}, max ${lateness.at(-1)?.toFixed(2)}`,
      );
      t.true((lateness.at(-1) ?? Infinity) <= INTERVAL_SECONDS + 10, 'no stage 2 was later than one interval + 10 s');
      const metrics = await all(cluster, survivors);
      const fired = sumOver(metrics, 'escalation_stage_lateness_seconds_count') - need('latenessCountsBeforeKill');
      t.is(
        fired,
        incidents.length,
        'the survivors reported the lateness of every stage 2 they fired (escalation_stage_lateness_seconds)',
      );
    },
  );

  test.serial('the survivors evaluate every rule once per tick and read each combination once', async (t) => {
    t.timeout(150_000);
    const survivors = INSTANCES.filter((i) => i !== need('victim'));
    const window = await perTick(need('cluster'), survivors, 2);
    t.log(`per tick after the kill: ${JSON.stringify(window.rows)}`);
    t.is(
      window.evaluations,
      RULES,
      `RuleEvaluated per tick over the survivors (${window.rows.map((r) => r.evaluations).join(' + ')})`,
    );
    t.is(
      window.reads,
      distinctReads(need('caller').envId, need('rules')),
      'warehouse reads per tick over the survivors',
    );
  });

  test.serial('SSE clients on all three instances received every incident event', async (t) => {
    const cluster = need('cluster');
    const caller = need('caller');
    const victim = need('victim');
    const expected = new Map<string, string>();
    for (const incident of need('incidents')) {
      const events = (
        await cluster.api(INSTANCES.find((i) => i !== victim)!, 'GET', `/api/v1/incidents/${incident.id}/events`, {
          caller,
        })
      ).body.data as { position: string; type: string; occurred_at: string }[];
      for (const event of events) expected.set(event.position, event.type);
    }
    const killedAt = need('killedAt');
    const sse = need('sse');
    const survivors = INSTANCES.filter((i) => i !== victim);
    // The last deliveries' events may still be on their way to the clients.
    await waitFor(
      () => survivors.every((i) => [...expected.keys()].every((p) => sse[i]!.events.some((e) => e.id === p))),
      { timeoutMs: 10_000, intervalMs: 100, message: "every event on the survivors' streams" },
    ).catch(() => {});
    for (const index of INSTANCES) {
      const received = new Map(sse[index]!.events.map((e) => [e.id!, e.event!]));
      const missing = [...expected.keys()].filter((position) => !received.has(position));
      if (index === victim) {
        // Its stream ended with it: everything up to the kill, and nothing it never had.
        const beforeKill = (
          await Promise.all(
            need('incidents').map(async (incident) =>
              (
                (
                  await cluster.api(
                    INSTANCES.find((i) => i !== victim)!,
                    'GET',
                    `/api/v1/incidents/${incident.id}/events`,
                    { caller },
                  )
                ).body.data as { position: string; occurred_at: string }[]
              )
                .filter((e) => Date.parse(e.occurred_at) < killedAt - 2000)
                .map((e) => e.position),
            ),
          )
        ).flat();
        t.deepEqual(
          beforeKill.filter((p) => !received.has(p)),
          [],
          `instance ${index} (killed) streamed every incident event before its death`,
        );
      } else {
        t.deepEqual(
          missing,
          [],
          `instance ${index} streamed every incident event (${received.size} received, ${expected.size} in the streams)`,
        );
      }
      t.deepEqual(
        [...received.keys()].filter((p) => !expected.has(p)),
        [],
        `instance ${index} streamed no event that is not in the incident streams`,
      );
    }
  });

  test.serial('the killed instance, restarted on its DATA_DIR, takes its share of the rules again', async (t) => {
    t.timeout(120_000);
    const cluster = need('cluster');
    const victim = need('victim');
    await cluster.restart(victim);
    try {
      await waitFor(
        async () => {
          const metrics = await all(cluster, INSTANCES);
          return (
            metrics[victim]!.sum('cluster_owned_work', { kind: 'rules' }) > 0 &&
            metrics.every((m) => m.sum('cluster_members') === SIZE)
          );
        },
        { timeoutMs: TAKEOVER_MS, intervalMs: 250, message: 'three members again, the restarted one owning rules' },
      );
    } catch (error) {
      const metrics = await all(cluster, INSTANCES);
      t.fail(
        `${(error as Error).message}: cluster_members ${metrics.map((m) => (m.has('cluster_members') ? m.sum('cluster_members') : 'not exported')).join(', ')}; rules owned ${metrics.map((m) => m.sum('cluster_owned_work', { kind: 'rules' })).join(', ')}`,
      );
    }
    const window = await perTick(cluster, INSTANCES, 2);
    t.log(`per tick after the restart: ${JSON.stringify(window.rows)}`);
    t.true(window.rows.find((r) => r.instance === victim)!.evaluations > 0, 'the restarted instance evaluates rules');
    t.is(window.evaluations, RULES, 'RuleEvaluated per tick over the three');
  });
  test.serial(
    'across the cluster (three members again): one warehouse read per distinct combination and one evaluation per rule, per tick',
    async (t) => {
      t.timeout(120_000);
      const cluster = need('cluster');
      const expectedReads = distinctReads(need('caller').envId, need('rules'));
      const window = await perTick(cluster, INSTANCES, 2);
      t.log(`per tick: ${JSON.stringify(window.rows)}`);
      t.is(
        window.reads,
        expectedReads,
        `warehouse reads per tick summed over the instances (${window.rows.map((r) => r.reads).join(' + ')})`,
      );
      t.is(
        window.evaluations,
        RULES,
        `RuleEvaluated per tick summed over the instances (${window.rows.map((r) => r.evaluations).join(' + ')})`,
      );
      const metrics = await all(cluster, INSTANCES);
      t.true(
        metrics.every((m) => m.has('cluster_members')),
        'every instance exports cluster_members',
      );
      t.deepEqual(
        metrics.map((m) => m.sum('cluster_members')),
        [SIZE, SIZE, SIZE],
        'every instance sees three members',
      );
      t.is(
        sumOver(metrics, 'cluster_owned_work', { kind: 'rules' }),
        RULES,
        'the rules owned add up to all of them, each owned once',
      );
    },
  );
}
