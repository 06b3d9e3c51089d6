/**
 * Carrying a quiet decision over from the last tick (src/process/quiet-decisions.ts) changes
 * nothing: the same ticks run in two worlds on their own stores, one evaluator for every tick
 * (decisions carried over) and a new evaluator for each tick (nothing in memory: every rule decided
 * afresh), give the same tick reports, the same recorded evaluations and the same incidents. One
 * rule per case, each reading its own environment: steady, a crossing, a pending clock that
 * elapses, an hour that turns (every rule's, the ticks span 90 minutes), a rule edited, a
 * maintenance window started and ended, a reading missing (an error, then no data), an incident
 * resolved by hand. Then the carry-over rule itself, table-driven.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { incidentDecider } from '../commands/incidents.js';
import type { AlertRuleDoc } from '../projections/alert-rules.js';
import { INCIDENTS, type IncidentDoc } from '../projections/incidents.js';
import { handleCommand } from '../src/commanding/command-handler.js';
import type { AlertRuleData } from '../src/events/alert-rule.js';
import { incidentIdFor, incidentStream } from '../src/events/incident.js';
import { initialRuleWatch, ruleEvaluationStream, type RuleEvaluatedData } from '../src/events/rule-evaluation.js';
import { MetricNoDataError, WarehouseUnavailableError } from '../src/gateways/warehouse/errors.js';
import type { MetricReadResult } from '../src/gateways/warehouse/metrics/provider.js';
import type { MetricRegistry } from '../src/gateways/warehouse/metrics/registry.js';
import type { MetricRequest } from '../src/gateways/warehouse/port.js';
import type { ActiveWindow, EvaluationDecision } from '../src/process/evaluation-decision.js';
import { HISTORY_HEARTBEAT_MS, heartbeatOffsetMs, nextHourTurn } from '../src/process/evaluation-record.js';
import { createEvaluator, createEvaluatorInstruments, type TickReport } from '../src/process/evaluator.js';
import { decidesAsBefore, NO_WINDOWS_TOKEN, quietDecision, windowsTokens } from '../src/process/quiet-decisions.js';
import { alertRuleData, evaluatorStores } from './support/evaluator-stores.js';

const START = Date.parse('2026-11-20T12:00:00Z');
const TICK_MS = 3 * 60_000;
const TICKS = 30;
const TENANT = randomUUID();
const WINDOW_ID = randomUUID();

type Reading = number | 'error' | 'no_data';

/**
 * One rule per case: its reading at tick i (threshold 100, condition gt unless said), and some
 * evaluations its history must show (`outcome@t<i>`: the case happened as described).
 */
const cases: { name: string; fields?: Partial<AlertRuleData>; reading: (i: number) => Reading; shows: string[] }[] = [
  { name: 'steady', reading: () => 10, shows: [] },
  {
    name: 'crossing',
    fields: { evaluationWindowMinutes: 5 },
    reading: (i) => ([3, 4, 9, 15, 16, 17].includes(i) ? 150 : 10),
    shows: ['pending@t3', 'ok@t5', 'pending@t9', 'ok@t10', 'triggered@t17', 'resolved@t18'],
  },
  // Pending from t2; the window (10 min, ticks 3 min apart) has elapsed at t6; resolved at t20.
  {
    name: 'pending elapsed',
    fields: { evaluationWindowMinutes: 10 },
    reading: (i) => (i >= 2 && i < 20 ? 150 : 10),
    shows: ['pending@t2', 'triggered@t6', 'resolved@t20'],
  },
  // Quiet throughout with a changing value: the only records are its hour turns (90 minutes of ticks).
  { name: 'hour turn', fields: { threshold: 1e9 }, reading: (i) => i * 7, shows: [] },
  // Its threshold is edited to 20 before t6 (the reading 50 then breaches), its name before t12.
  { name: 'rule edited', reading: () => 50, shows: ['pending@t6', 'triggered@t8'] },
  // Breaching from t1 with a 6-minute window; a maintenance window covers it from t2 to t8.
  {
    name: 'window started and ended',
    fields: { evaluationWindowMinutes: 6 },
    reading: (i) => (i >= 1 ? 150 : 10),
    shows: ['pending@t1', 'silenced@t2', 'triggered@t9'],
  },
  // Quiet, covered by the same maintenance window from t2 to t8.
  { name: 'window over a quiet rule', reading: () => 10, shows: ['silenced@t2', 'ok@t9'] },
  {
    name: 'reading missing',
    fields: { onError: 'alerting', onNoData: 'ok', errorForMinutes: 5 },
    reading: (i) => (i >= 5 && i < 9 ? 'error' : i >= 9 && i < 12 ? 'no_data' : i >= 12 && i < 14 ? 150 : 10),
    shows: ['error@t5', 'no_data@t9', 'pending@t12', 'ok@t14'],
  },
  // Triggers at t1 (window 0); resolved by hand before t4; clears at t10, breaches again at t12.
  {
    name: 'resolved by hand',
    fields: { evaluationWindowMinutes: 0 },
    reading: (i) => (i >= 1 && (i < 10 || i >= 12) ? 150 : 10),
    shows: ['triggered@t1', 'unchanged@t4', 'ok@t10', 'triggered@t12'],
  },
];

/** The rules, the same in both worlds (ids, environments, policies): one per case, each reading its own environment. */
const RULES = cases.map((c) => alertRuleData(randomUUID(), { threshold: 100, ...c.fields }));

/** A metric registry that answers each environment's scripted reading at the current tick. */
function scriptedMetrics(readingOf: (envId: string) => Reading): MetricRegistry {
  let reads = 0;
  const resultOf = (request: MetricRequest): MetricReadResult => {
    reads++;
    const reading = readingOf(request.envId);
    if (reading === 'error')
      return { request, ok: false, error: new WarehouseUnavailableError(request.envId, 'paused', 'paused') };
    if (reading === 'no_data')
      return { request, ok: false, error: new MetricNoDataError(request.envId, request.metric, request.windowMinutes) };
    return { request, ok: true, value: reading };
  };
  return {
    register: () => {},
    ids: () => [],
    has: () => true,
    describe: () => [],
    read: async () => 0,
    readMany: async (requests) => requests.map(resultOf),
    get providerReads() {
      return reads;
    },
  };
}

async function world(carryOver: boolean) {
  const stores = await evaluatorStores('quiet-');
  let tick = 0;
  const now = () => new Date(START + (tick + 1) * TICK_MS);
  const rules = RULES;
  const envCase = new Map(rules.map((rule, index) => [rule.envId, cases[index]!]));
  const commandDeps = {
    eventStore: stores.eventStore,
    now,
    waitForProjections: (p: bigint) => stores.runner.waitFor(p, 5000),
  };
  const windowed = ['window started and ended', 'window over a quiet rule'].map(
    (name) => rules[cases.findIndex((c) => c.name === name)]!.ruleId,
  );
  const activeWindows = async (): Promise<Map<string, ActiveWindow[]>> => {
    // Another window of the tenant, for a cluster no rule has, is active all along.
    const list: ActiveWindow[] = [
      { id: TENANT, matcher: { allRules: false, ruleIds: [], clusterIds: ['elsewhere'], severities: [] } },
    ];
    if (tick >= 2 && tick <= 8)
      list.push({
        id: WINDOW_ID,
        matcher: { allRules: false, ruleIds: windowed, clusterIds: [], severities: [] },
      });
    return new Map([[TENANT, list]]);
  };
  const newEvaluator = () =>
    createEvaluator({
      ...commandDeps,
      reader: stores.readStore,
      ruleChanges: stores.ruleChanges,
      metrics: scriptedMetrics((envId) => envCase.get(envId)!.reading(tick)),
      logger: stores.logger,
      instruments: createEvaluatorInstruments(new Registry()),
      activeWindows,
    });
  const evaluator = newEvaluator();
  await stores.createRules(TENANT, new Date(START), rules);
  const append = async (stream: string, type: string, data: AlertRuleData) => {
    const metadata = {
      tenantId: TENANT,
      actor: 'test',
      correlationId: 'c',
      causationId: 'c',
      occurredAt: now().toISOString(),
    };
    const { position } = await stores.eventStore.append(stream, [{ type, data, metadata }]);
    await stores.runner.waitFor(position, 5000);
  };
  const edited = rules[cases.findIndex((c) => c.name === 'rule edited')]!;
  const byHand = rules[cases.findIndex((c) => c.name === 'resolved by hand')]!;
  return {
    rules,
    /** What happens before tick i, then tick i. */
    async tick(i: number): Promise<TickReport> {
      tick = i;
      if (i === 6) await append(`alertRule-${edited.ruleId}`, 'AlertRuleUpdated', { ...edited, threshold: 20 });
      if (i === 12)
        await append(`alertRule-${edited.ruleId}`, 'AlertRuleUpdated', { ...edited, threshold: 20, name: 'renamed' });
      if (i === 4) {
        const incidentId = incidentIdFor(byHand.ruleId, 1);
        await handleCommand(commandDeps, incidentDecider, {
          stream: incidentStream(incidentId),
          resourceName: 'incident',
          command: { kind: 'ResolveIncident', incidentId, reason: 'manual' },
          envelope: { tenantId: TENANT, actor: 'user', correlationId: 'c', causationId: 'c' },
        });
      }
      return (carryOver ? evaluator : newEvaluator()).tick();
    },
    async evaluations(ruleId: string) {
      return (await stores.eventStore.readStream(ruleEvaluationStream(ruleId))).map((event) => event.data);
    },
    incidents: (ruleId: string) => stores.readStore.find<IncidentDoc>(INCIDENTS, { rule_id: ruleId }),
    close: () => stores.close(),
  };
}

test('carried-over decisions give the same reports, history and incidents as deciding every rule every tick', async (t) => {
  const carried = await world(true);
  const fresh = await world(false);
  t.teardown(async () => {
    await carried.close();
    await fresh.close();
  });
  const counts = (report: TickReport) => ({
    rules: report.rules,
    triggered: report.triggered,
    resolved: report.resolved,
    errors: report.errors,
    recorded: report.recorded,
    readFailuresOpened: report.readFailuresOpened,
    readFailuresResolved: report.readFailuresResolved,
  });
  let carriedOver = 0;
  for (let i = 0; i < TICKS; i++) {
    const a = await carried.tick(i);
    const b = await fresh.tick(i);
    t.deepEqual(counts(a), counts(b), `tick ${i}`);
    t.is(b.carriedOver, 0, 'a new evaluator has nothing to carry over');
    carriedOver += a.carriedOver ?? 0;
  }
  // Most decisions were carried over (the feature is on), and every case's history and incidents match.
  t.true(carriedOver > (TICKS * cases.length) / 2, `${carriedOver} carried over`);
  // Every rule's hour turned within the 90 minutes: each history holds at least one evaluation.
  for (const rule of RULES) t.true((await carried.evaluations(rule.ruleId)).length > 0);
  for (const [index, c] of cases.entries()) {
    const ruleId = carried.rules[index]!.ruleId;
    const history = await carried.evaluations(ruleId);
    t.deepEqual(history, await fresh.evaluations(ruleId), c.name);
    const outcomes = history.map((data) => {
      const { outcome, at } = data as RuleEvaluatedData;
      return `${outcome}@t${(Date.parse(at) - START) / TICK_MS - 1}`;
    });
    for (const shown of c.shows) t.true(outcomes.includes(shown), `${c.name}: ${shown} in ${outcomes.join(' ')}`);
    t.deepEqual(await carried.incidents(ruleId), await fresh.incidents(ruleId), c.name);
  }
});

/** A quiet `pending` decision of a rule with a 10-minute window, pending since 12:00, decided at 12:03. */
const PENDING_SINCE = '2026-11-20T12:00:00.000Z';
const DECIDED_AT = Date.parse('2026-11-20T12:03:00.000Z');
/** A rule id whose hour turns in the second half of the hour: after every instant of the cases below. */
function ruleIdWithLateHour(): string {
  for (;;) {
    const id = randomUUID();
    if (heartbeatOffsetMs(id) >= HISTORY_HEARTBEAT_MS / 2) return id;
  }
}
const pendingRule = {
  id: ruleIdWithLateHour(),
  condition: 'gt',
  threshold: 100,
  evaluationWindowMinutes: 10,
  updatedAt: PENDING_SINCE,
  lastRecorded: {
    at: PENDING_SINCE,
    outcome: 'pending',
    conditionMet: true,
    incidentId: null,
    error: null,
  },
} as unknown as AlertRuleDoc;
const pendingWatch = { ...initialRuleWatch(), pendingSince: PENDING_SINCE };
const windows = windowsTokens();
const tokenBefore = windows(new Map()).get('tenant') ?? NO_WINDOWS_TOKEN;
const kept = quietDecision(
  pendingRule,
  pendingWatch,
  { outcome: 'pending', action: 'none', value: 150, conditionMet: true },
  { incident: false, recorded: false },
  tokenBefore,
  DECIDED_AT,
)!;
const hourTurn = nextHourTurn(pendingRule.id, PENDING_SINCE);
const value = (v: number): MetricReadResult => ({ request: {} as MetricRequest, ok: true, value: v });
const minutes = (m: number) => DECIDED_AT + m * 60_000;

const carryCases: { name: string; reading?: MetricReadResult; windows?: object; at: number; carried: boolean }[] = [
  { name: 'a minute later, still breaching', at: minutes(1), carried: true },
  { name: 'another value on the same side of the threshold', reading: value(999), at: minutes(1), carried: true },
  { name: 'the reading crosses back', reading: value(50), at: minutes(1), carried: false },
  {
    name: 'the reading fails',
    reading: { request: {} as MetricRequest, ok: false, error: new Error('x') },
    at: minutes(1),
    carried: false,
  },
  { name: 'the pending clock has run its 10 minutes', at: Date.parse(PENDING_SINCE) + 10 * 60_000, carried: false },
  { name: 'a maintenance window started in the tenant', windows: {}, at: minutes(1), carried: false },
  { name: 'an earlier clock', at: DECIDED_AT - 1, carried: false },
];
for (const c of carryCases)
  test(`a quiet pending decision is carried over: ${c.name} → ${c.carried}`, (t) => {
    t.is(decidesAsBefore(kept, pendingRule, c.reading ?? value(150), c.windows ?? tokenBefore, c.at), c.carried);
  });

test('a quiet decision is carried over until the rule hour turns, not after', (t) => {
  const quiet = { ...pendingRule, evaluationWindowMinutes: 24 * 60 } as AlertRuleDoc;
  const decision = quietDecision(
    quiet,
    pendingWatch,
    { outcome: 'pending', action: 'none', value: 150, conditionMet: true },
    { incident: false, recorded: false },
    tokenBefore,
    DECIDED_AT,
  )!;
  t.is(decision.until, hourTurn);
  t.true(decidesAsBefore(decision, quiet, value(150), tokenBefore, hourTurn - 1));
  t.false(decidesAsBefore(decision, quiet, value(150), tokenBefore, hourTurn));
});

test('decisions that change an incident, are recorded or have no reading are not kept', (t) => {
  const keep = (decision: EvaluationDecision, changes = { incident: false, recorded: false }) =>
    quietDecision(pendingRule, pendingWatch, decision, changes, tokenBefore, DECIDED_AT);
  t.truthy(keep({ outcome: 'ok', action: 'none', value: 1, conditionMet: false }));
  t.is(
    keep({ outcome: 'ok', action: 'none', value: 1, conditionMet: false }, { incident: false, recorded: true }),
    undefined,
  );
  t.is(
    keep({ outcome: 'triggered', action: 'trigger', value: 1, conditionMet: true }, { incident: true, recorded: true }),
    undefined,
  );
  t.is(keep({ outcome: 'error', action: 'none', error: 'x' }), undefined);
  t.is(keep({ outcome: 'no_data', action: 'none', error: 'x' }), undefined);
});

test('the same active windows of a tenant get the same token tick after tick; a change gets a new one', (t) => {
  const tokens = windowsTokens();
  const matcher = { allRules: false, ruleIds: [], clusterIds: ['c1'], severities: [] as never[] };
  const first = tokens(new Map([['a', [{ id: 'w1', matcher }]]])).get('a');
  t.is(tokens(new Map([['a', [{ id: 'w1', matcher }]]])).get('a'), first);
  t.not(tokens(new Map([['a', [{ id: 'w1', matcher: { ...matcher, clusterIds: ['c2'] } }]]])).get('a'), first);
  t.is(tokens(new Map([['a', []]])).get('a'), undefined, 'no active window: the evaluator uses NO_WINDOWS_TOKEN');
});
