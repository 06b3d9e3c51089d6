/**
 * The escalation preview's work (issue 36, item 1), with counting fakes and no clock: a request
 * reads each schedule, user, group and channel once and resolves each (schedule, instant) once,
 * however many stages, targets and cycles name them; the work units count the distinct (schedule,
 * instant) pairs at the schedule's size; the answer is the one the unmemoised directory gives; the
 * heavy-request slots cap per tenant and in total; a time slice yields to the event loop; a long
 * read in pages finds what one read finds.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createHeavyRequestSlots } from '../src/http/heavy-request-slots.js';
import { HttpProblem } from '../src/http/problem.js';
import { compileSchedule } from '../src/oncall/compiled-schedule.js';
import { currentOnCall, onCallAtInstant } from '../src/oncall/current-on-call.js';
import type { ScheduleDefinition } from '../src/oncall/schedule-definition.js';
import { findInPages } from '../src/readstore/find-in-pages.js';
import { openSqliteReadStore } from '../src/readstore/sqlite.js';
import {
  previewEscalation,
  previewFirings,
  previewWorkUnits,
  scheduleWorkUnits,
  type PreviewPlan,
} from '../src/process/escalation/escalation-preview.js';
import {
  directoryOver,
  memoisedDirectory,
  requestDirectory,
  type DirectoryReads,
  type PreviewDirectory,
} from '../src/process/escalation/preview-directory.js';
import type { ContactUser } from '../src/process/escalation/target-resolution.js';
import { timeSlices } from '../src/time-slice.js';

const TENANT = 'tenant-1';
const AT = new Date('2026-06-01T09:00:00Z');
const person = (id: string): ContactUser => ({ id, name: id, email: `${id}@example.com`, phone: null, active: true });
const definition = (userIds: string[], overrides = 0): ScheduleDefinition => ({
  timezone: 'UTC',
  layers: [{ userIds, rotationType: 'daily', startTime: '2026-01-01T00:00:00Z' }],
  overrides: Array.from({ length: overrides }, (_, index) => ({
    id: `o${index}`,
    userId: userIds[0]!,
    start: '2027-01-01T00:00:00Z',
    end: '2027-01-02T00:00:00Z',
  })),
});

/** Reads that count every call, over `schedules` schedules of two people each, and one user, group and channel. */
function countingReads(schedules: number) {
  const calls = { user: 0, group: 0, channel: 0, schedule: 0 };
  const reads: DirectoryReads = {
    user: async (_tenant, id) => {
      calls.user += 1;
      return person(id);
    },
    activeGroupMembers: async () => {
      calls.group += 1;
      return [person('gina')];
    },
    channel: async (_tenant, id) => {
      calls.channel += 1;
      return { id, type: 'chat', config: {} };
    },
    schedule: async (_tenant, id) => {
      calls.schedule += 1;
      const index = Number(id.slice(1));
      if (index >= schedules) return null;
      const def = definition([`p${index}a`, `p${index}b`], index);
      return {
        compiled: compileSchedule(def, () => true),
        contacts: new Map([`p${index}a`, `p${index}b`].map((u) => [u, person(u)])),
        units: scheduleWorkUnits(def),
      };
    },
  };
  return { reads, calls };
}

/** `stages` stages 10 minutes apart, each naming schedules s0…s{targets-1}, a user, a group and a channel; repeating every 30 minutes. */
const plan = (stages: number, targets: number): PreviewPlan => ({
  repeatIntervalMinutes: 30,
  stages: Array.from({ length: stages }, (_, index) => ({
    stageOrder: index + 1,
    delayMinutes: index === 0 ? 0 : 10,
    targets: [
      ...Array.from({ length: targets }, (_, s) => ({
        type: 'schedule' as const,
        id: `s${s}`,
        channels: ['email' as const],
      })),
      { type: 'user' as const, id: 'ursula', channels: ['email' as const] },
      { type: 'group' as const, id: 'g1', channels: ['email' as const] },
      { type: 'channel' as const, id: 'c1', channels: [] },
    ],
  })),
});

const table: { stages: number; targets: number; cycles: number }[] = [
  { stages: 1, targets: 1, cycles: 1 },
  { stages: 3, targets: 4, cycles: 2 },
  { stages: 20, targets: 50, cycles: 5 },
];

for (const { stages, targets, cycles } of table) {
  test(`${stages} stages × ${targets} schedules × ${cycles} cycles: each read once, on-call resolved once per distinct (schedule, instant), the same answer`, async (t) => {
    const { reads } = countingReads(targets);
    let onCalls = 0;
    const inner = directoryOver(reads);
    const counting: PreviewDirectory = {
      ...inner,
      onCall: (tenantId, id, at) => {
        onCalls += 1;
        return inner.onCall(tenantId, id, at);
      },
    };
    const direct = await previewEscalation(
      directoryOver(countingReads(targets).reads),
      TENANT,
      plan(stages, targets),
      AT,
      cycles,
    );

    // The memoised layer: one on-call computation per distinct (schedule, instant).
    const memoised = await previewEscalation(memoisedDirectory(counting), TENANT, plan(stages, targets), AT, cycles);
    const instants = new Set(previewFirings(plan(stages, targets), AT, cycles).map((f) => f.firesAt.getTime())).size;
    t.is(instants, stages * cycles);
    t.is(onCalls, targets * instants);
    t.deepEqual(memoised, direct);

    // A request's directory: each schedule, user, group and channel read once.
    const request = countingReads(targets);
    const answered = await previewEscalation(
      requestDirectory(request.reads, async () => {}),
      TENANT,
      plan(stages, targets),
      AT,
      cycles,
    );
    t.deepEqual(request.calls, { user: 1, group: 1, channel: 1, schedule: targets });
    t.deepEqual(answered, direct);
  });
}

test('without the request directory the reads grow with stages × targets × cycles (what the issue measured)', async (t) => {
  const { reads, calls } = countingReads(50);
  await previewEscalation(directoryOver(reads), TENANT, plan(20, 50), AT, 5);
  t.is(calls.schedule, 20 * 50 * 5);
});

test('work units: each distinct (schedule, instant) at 1 + the people across its layers + its overrides; a missing schedule costs 1; person, group and channel targets nothing', async (t) => {
  const { reads } = countingReads(3);
  const directory = requestDirectory(reads, async () => {});
  const units = (p: PreviewPlan, cycles: number, schedules = 3) =>
    previewWorkUnits(p, previewFirings(p, AT, cycles), (id) =>
      Number(id.slice(1)) < schedules ? directory.scheduleUnits(TENANT, id) : Promise.resolve(null),
    );
  // s0: 1 + 2 people + 0 overrides = 3; s1: 4; s2: 5.
  t.is(await units(plan(1, 1), 1), 3);
  t.is(await units(plan(1, 3), 1), 3 + 4 + 5);
  t.is(await units(plan(2, 3), 3), 6 * (3 + 4 + 5));
  t.is(await units(plan(2, 4), 1), 2 * (3 + 4 + 5 + 1), 's3 does not exist: 1 each time');
  // Two stages at the same instant (no delay) name the same (schedule, instant) once.
  const together: PreviewPlan = {
    repeatIntervalMinutes: 0,
    stages: [1, 2].map((stageOrder) => ({
      stageOrder,
      delayMinutes: 0,
      targets: [{ type: 'schedule', id: 's2', channels: ['email'] }],
    })),
  };
  t.is(await units(together, 1), 5);
  t.is(await units({ ...plan(1, 0) }, 1), 0);
});

test('heavy-request slots: per tenant, then in total; a 429 with Retry-After naming the limit; a slot given back once', (t) => {
  const slots = createHeavyRequestSlots({ perTenant: 2, total: 3 });
  const a1 = slots.take('a');
  slots.take('a');
  const perTenant = t.throws(() => slots.take('a'), { instanceOf: HttpProblem })!;
  t.is(perTenant.status, 429);
  t.is(perTenant.headers['Retry-After'], '1');
  t.regex(perTenant.detail!, /at most 2 .*per tenant.*HEAVY_REQUESTS_PER_TENANT/);
  slots.take('b');
  const total = t.throws(() => slots.take('c'), { instanceOf: HttpProblem })!;
  t.is(total.status, 429);
  t.regex(total.detail!, /at most 3 .*all tenants together.*HEAVY_REQUESTS_TOTAL/);
  t.is(slots.inUse(), 3);
  a1();
  a1();
  t.is(slots.inUse(), 2, 'released once, however often called');
  t.notThrows(() => slots.take('c'));
  t.throws(() => slots.take('a'), { instanceOf: HttpProblem }, 'the total is full again');
});

test('a time slice yields to the event loop once it has run its length, and not before', async (t) => {
  let now = 0;
  const pause = timeSlices(10, () => now);
  const order: string[] = [];
  void nextTurn().then(() => order.push('other work'));
  now = 9;
  await pause();
  order.push('within the slice');
  now = 10;
  await pause();
  order.push('after the slice');
  t.deepEqual(order, ['within the slice', 'other work', 'after the slice']);
});

test('who is on call at an instant, without the stretch, is who currentOnCall names and why, across handoffs, overrides and gaps', (t) => {
  const def: ScheduleDefinition = {
    timezone: 'Europe/Berlin',
    layers: [
      { userIds: ['a', 'b', 'c'], rotationType: 'daily', startTime: '2026-03-01T09:00:00' },
      { userIds: ['d', 'off'], rotationType: 'weekly', startTime: '2026-03-02T00:00:00' },
    ],
    overrides: [
      { id: 'o1', userId: 'e', start: '2026-03-29T00:30:00Z', end: '2026-03-29T03:00:00Z' },
      { id: 'o2', userId: 'off', start: '2026-03-30T00:00:00Z', end: '2026-03-31T00:00:00Z' },
    ],
  };
  const active = (id: string) => id !== 'off';
  const compiled = compileSchedule(def, active);
  for (let at = Date.parse('2026-02-27T00:00:00Z'); at < Date.parse('2026-04-15T00:00:00Z'); at += 47 * 60_000) {
    const full = currentOnCall(def, new Date(at), active);
    const quick = onCallAtInstant(compiled, new Date(at));
    if (full === null) t.is(quick, null);
    else
      t.deepEqual(quick, {
        userId: full.userId,
        source:
          full.source === 'layer'
            ? { source: 'layer', layerIndex: full.layerIndex }
            : { source: 'override', overrideId: full.overrideId },
      });
  }
});

test('a long read in pages finds what one read finds, in the same order, waiting its turn before each page', async (t) => {
  const store = openSqliteReadStore(join(mkdtempSync(join(tmpdir(), 'find-in-pages-')), 'r.db'));
  // 23 documents, some sharing a time (ties by id), one of another tenant.
  const docs = Array.from({ length: 23 }, (_, index) => ({
    id: randomUUID(),
    tenantId: index === 7 ? 'other' : TENANT,
    at: `2026-06-0${1 + (index % 4)}T00:00:00Z`,
  }));
  await store.applyBatch({ projection: 'seed', version: 1 }, [{ position: 1n }], async (_event, writer) => {
    for (const doc of docs) await writer.upsert('things', doc);
  });
  let pauses = 0;
  const pause = async () => {
    pauses += 1;
  };
  const byAt = await findInPages(store, 'things', { tenantId: TENANT }, 5, pause, 'at');
  t.deepEqual(byAt, await store.find('things', { tenantId: TENANT }, { sort: [['at', 'asc']] }));
  t.is(byAt.length, 22);
  t.is(pauses, 5, 'pages of 5, 5, 5, 5, 2');
  t.deepEqual(
    await findInPages(store, 'things', { tenantId: TENANT }, 22, async () => {}),
    await store.find('things', { tenantId: TENANT }),
    'by id: a full last page ends with an empty one',
  );
  await store.close();
});
