/**
 * Property tests over random schedules, checked against a brute-force oracle that follows the
 * issue's words literally: walk each layer's handoffs one by one from its start, ask who is active
 * turn by turn, scan overrides from the last added. The oracle shares only the table-tested zone
 * math and time parsing with the code under test, not its sweep, turn arithmetic or merging.
 */
import test from 'ava';
import fc from 'fast-check';
import { currentOnCall, ON_CALL_HORIZON_DAYS } from '../src/oncall/current-on-call.js';
import { layerHandoffs } from '../src/oncall/layer-rotation.js';
import { renderSchedule } from '../src/oncall/render-schedule.js';
import type { Layer, Override, ScheduleDefinition, ScheduleSegment } from '../src/oncall/schedule-definition.js';
import { instantOfWallClock, utcOffsetMs, wallClockAt } from '../src/oncall/zone-offsets.js';
import { formatUtcOffset, parseScheduleTime } from '../src/oncall/zoned-iso.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const RUNS = 150;

const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/Berlin',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'America/St_Johns',
  'Pacific/Chatham',
  'Asia/Kathmandu',
  'Africa/Casablanca',
];

/** The instants a zone changed offset in 2026, found by sampling every six hours and bisecting. */
function offsetChangesIn2026(zone: string): number[] {
  const changes: number[] = [];
  for (let at = Date.parse('2026-01-01T00:00:00Z'); at < Date.parse('2027-01-01T00:00:00Z'); at += 6 * HOUR) {
    let [before, after] = [at, at + 6 * HOUR];
    if (utcOffsetMs(zone, before) === utcOffsetMs(zone, after)) continue;
    while (after - before > 1) {
      const middle = Math.floor((before + after) / 2);
      if (utcOffsetMs(zone, middle) === utcOffsetMs(zone, before)) before = middle;
      else after = middle;
    }
    changes.push(after);
  }
  return changes;
}

/** Random schedules cluster around their zone's offset changes, where mistakes hide. */
const CHANGES = new Map(
  ZONES.map((zone) => {
    const changes = offsetChangesIn2026(zone);
    return [zone, changes.length > 0 ? changes : [Date.parse('2026-07-01T00:00:00Z')]];
  }),
);
const USERS = ['u0', 'u1', 'u2', 'u3', 'u4', 'u5'];

/**
 * Minutes from `around` (an offset change): anywhere within the span, or whole days plus up to 75
 * minutes either way, so that handoffs often fall in the hour the change skips or repeats.
 */
const minutesFrom = (spanDays: number) =>
  fc.oneof(
    fc.integer({ min: -spanDays * 24 * 60, max: spanDays * 24 * 60 }),
    fc
      .tuple(fc.integer({ min: -spanDays, max: spanDays }), fc.integer({ min: -75, max: 75 }))
      .map(([days, minutes]) => days * 24 * 60 + minutes),
  );

/** A time written the three ways the definition allows: Z, a fixed offset, or a wall clock in the zone. */
const timeText = (around: number, spanDays: number) =>
  fc
    .tuple(minutesFrom(spanDays), fc.integer({ min: 0, max: 2 }), fc.integer({ min: -48, max: 56 }))
    .map(([minutes, form, quarters]) => {
      const instant = around + minutes * MINUTE;
      if (form === 0) return new Date(instant).toISOString();
      if (form === 1)
        return `${new Date(instant + quarters * 15 * MINUTE).toISOString().slice(0, 19)}${formatUtcOffset(quarters * 15 * MINUTE)}`;
      return new Date(instant).toISOString().slice(0, 19);
    });

const scenario = fc
  .constantFrom(...ZONES)
  .chain((zone) =>
    fc.record({ zone: fc.constant(zone), around: fc.constantFrom(...CHANGES.get(zone)!), active: fc.subarray(USERS) }),
  )
  .chain(({ zone, around, active }) =>
    fc.record({
      around: fc.constant(around),
      definition: fc.record({
        timezone: fc.constant(zone),
        layers: fc.array(
          fc.record({
            userIds: fc.array(fc.constantFrom(...USERS), { maxLength: 5 }),
            rotationType: fc.constantFrom('daily' as const, 'weekly' as const),
            startTime: timeText(around, 20),
          }),
          { maxLength: 4 },
        ),
        overrides: fc.array(
          fc
            .record({
              id: fc.uuid(),
              userId: fc.constantFrom(...USERS),
              start: timeText(around, 10),
              lengthMinutes: fc.integer({ min: -60, max: 3 * 24 * 60 }),
            })
            .map(
              ({ lengthMinutes, ...rest }): Override => ({
                ...rest,
                end: new Date(parseScheduleTime(rest.start, zone) + lengthMinutes * MINUTE).toISOString(),
              }),
            ),
          { maxLength: 6 },
        ),
      }),
      active: fc.constant(new Set(active)),
      from: minutesFrom(5).map((minutes) => around + minutes * MINUTE),
      length: fc.integer({ min: 1, max: 10 * 24 * 60 }).map((minutes) => minutes * MINUTE),
      samples: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 5, maxLength: 15 }),
      /** Minutes either side of a segment edge: the hour around a DST change is where turns are misread. */
      nearEdges: fc.array(fc.tuple(fc.nat(), fc.integer({ min: -90, max: 90 })), { maxLength: 4 }),
      /** Minutes either side of the offset change itself, where a handoff may have moved. */
      nearChange: fc.array(fc.integer({ min: -150, max: 150 }), { maxLength: 4 }),
    }),
  );

type Attribution = { userId: string; label: string } | null;

/** A layer's handoffs from its start, one turn after another, as far as they are asked for. */
function handoffWalk(layer: Layer, zone: string) {
  const start = parseScheduleTime(layer.startTime, zone);
  const startWallClock = wallClockAt(zone, start);
  const period = layer.rotationType === 'daily' ? DAY : 7 * DAY;
  const handoffs = [start];
  return (through: number) => {
    while (handoffs[handoffs.length - 1]! <= through)
      handoffs.push(instantOfWallClock(zone, startWallClock + handoffs.length * period));
    return handoffs;
  };
}

/** Who is on call, found the slow and literal way. */
function oracleOf(definition: ScheduleDefinition, isActive: (userId: string) => boolean) {
  const zone = definition.timezone;
  const layers = definition.layers.map((layer) => ({ layer, handoffsThrough: handoffWalk(layer, zone) }));
  const overrides = definition.overrides.map((o) => ({
    ...o,
    from: parseScheduleTime(o.start, zone),
    to: parseScheduleTime(o.end, zone),
  }));
  return (at: number): Attribution => {
    for (let index = overrides.length - 1; index >= 0; index--) {
      const o = overrides[index]!;
      if (o.from <= at && at < o.to && isActive(o.userId)) return { userId: o.userId, label: `override ${o.id}` };
    }
    for (let index = layers.length - 1; index >= 0; index--) {
      const { layer, handoffsThrough } = layers[index]!;
      const handoffs = handoffsThrough(at);
      if (at < handoffs[0]! || layer.userIds.length === 0) continue;
      const turn = handoffs.findIndex((handoff) => handoff > at) - 1;
      for (let step = 0; step < layer.userIds.length; step++) {
        const userId = layer.userIds[(turn + step) % layer.userIds.length]!;
        if (isActive(userId)) return { userId, label: `layer ${index}` };
      }
    }
    return null;
  };
}

const labelOf = (part: Pick<ScheduleSegment, 'source'> & { layerIndex?: number; overrideId?: string }) =>
  part.source === 'layer' ? `layer ${part.layerIndex}` : `override ${part.overrideId}`;

function renderedAt(segments: ScheduleSegment[], at: number): Attribution {
  const segment = segments.find((s) => s.start.getTime() <= at && at < s.end.getTime());
  return segment === undefined ? null : { userId: segment.userId, label: labelOf(segment) };
}

test('layerHandoffs in a range are the handoffs found by walking turn after turn from the start', (t) => {
  fc.assert(
    fc.property(scenario, ({ definition, from, length }) => {
      for (const layer of definition.layers) {
        const walked = handoffWalk(
          layer,
          definition.timezone,
        )(from + length).filter((at) => from <= at && at < from + length);
        const found = layerHandoffs(layer, definition.timezone, new Date(from), new Date(from + length)).map((at) =>
          at.getTime(),
        );
        if (JSON.stringify(found) !== JSON.stringify(walked))
          throw new Error(`${JSON.stringify(layer)}: ${found} vs ${walked}`);
      }
    }),
    { numRuns: RUNS },
  );
  t.pass();
});

test('near an offset change, the turn on call and its edges are those of the walk', (t) => {
  const nearChange = fc
    .constantFrom(...ZONES)
    .chain((zone) => fc.record({ zone: fc.constant(zone), change: fc.constantFrom(...CHANGES.get(zone)!) }))
    .chain(({ zone, change }) =>
      fc.record({
        zone: fc.constant(zone),
        rotationType: fc.constantFrom('daily' as const, 'weekly' as const),
        // A start some whole weeks before the change, its time of day within 75 minutes of the
        // change's, so that the handoff on the change day is often skipped or repeated.
        startTime: fc
          .tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: -75, max: 75 }))
          .map(([weeks, minutes]) => new Date(change - weeks * 7 * DAY + minutes * MINUTE).toISOString()),
        instants: fc.array(
          fc.integer({ min: -150, max: 150 }).map((minutes) => change + minutes * MINUTE),
          { minLength: 1, maxLength: 10 },
        ),
      }),
    );
  fc.assert(
    fc.property(nearChange, ({ zone, rotationType, startTime, instants }) => {
      const layer: Layer = { userIds: ['u0', 'u1', 'u2'], rotationType, startTime };
      const handoffs = handoffWalk(layer, zone)(Math.max(...instants));
      for (const at of instants) {
        const turn = handoffs.findIndex((handoff) => handoff > at) - 1;
        const answer = currentOnCall({ timezone: zone, layers: [layer], overrides: [] }, new Date(at), () => true);
        const expected = [`u${turn % 3}`, handoffs[turn], handoffs[turn + 1]];
        const actual = [answer?.userId, answer?.since.getTime(), answer?.until?.getTime()];
        if (JSON.stringify(actual) !== JSON.stringify(expected))
          throw new Error(`${zone} ${startTime} at ${new Date(at).toISOString()}: ${actual} vs ${expected}`);
      }
    }),
    { numRuns: RUNS },
  );
  t.pass();
});

test('rendered segments are sorted, disjoint, merged, and cover exactly the instants someone is on call', (t) => {
  fc.assert(
    fc.property(scenario, ({ definition, active, from, length, samples }) => {
      const isActive = (userId: string) => active.has(userId);
      const to = from + length;
      const segments = renderSchedule(definition, new Date(from), new Date(to), isActive);
      const oracle = oracleOf(definition, isActive);
      segments.forEach((segment, index) => {
        const [start, end] = [segment.start.getTime(), segment.end.getTime()];
        if (!(from <= start && start < end && end <= to)) throw new Error(`segment ${index} outside or empty`);
        const previous = segments[index - 1];
        if (previous === undefined) return;
        if (previous.end.getTime() > start) throw new Error(`segment ${index} overlaps or is out of order`);
        if (
          previous.end.getTime() === start &&
          previous.userId === segment.userId &&
          labelOf(previous) === labelOf(segment)
        )
          throw new Error(`segment ${index} not merged`);
      });
      const edges = segments.flatMap((s) => [s.start.getTime(), s.end.getTime() - 1, s.end.getTime()]);
      const spread = samples.map((fraction) => from + Math.floor(fraction * (length - 1)));
      for (const at of [from, to - 1, ...edges, ...spread].filter((at) => from <= at && at < to)) {
        const expected = oracle(at);
        const actual = renderedAt(segments, at);
        if (JSON.stringify(actual) !== JSON.stringify(expected)) {
          throw new Error(
            `at ${new Date(at).toISOString()}: rendered ${JSON.stringify(actual)}, oracle ${JSON.stringify(expected)}`,
          );
        }
      }
    }),
    { numRuns: RUNS },
  );
  t.pass();
});

test('currentOnCall agrees with the oracle, and since <= at < until bound one unbroken stretch of that person', (t) => {
  fc.assert(
    fc.property(scenario, ({ definition, active, around, from, length, samples, nearEdges, nearChange }) => {
      const isActive = (userId: string) => active.has(userId);
      const oracle = oracleOf(definition, isActive);
      const edges = renderSchedule(definition, new Date(from), new Date(from + length), isActive).map((segment) =>
        segment.start.getTime(),
      );
      const instants = [
        ...samples.slice(0, 3).map((fraction) => from + Math.floor(fraction * length)),
        ...nearEdges.map(([pick, minutes]) => (edges[pick % Math.max(1, edges.length)] ?? from) + minutes * MINUTE),
        ...nearChange.map((minutes) => around + minutes * MINUTE),
      ];
      for (const at of instants) {
        const answer = currentOnCall(definition, new Date(at), isActive);
        const expected = oracle(at);
        const actual = answer === null ? null : { userId: answer.userId, label: labelOf(answer) };
        if (JSON.stringify(actual) !== JSON.stringify(expected))
          throw new Error(
            `at ${new Date(at).toISOString()}: ${JSON.stringify(actual)} vs oracle ${JSON.stringify(expected)}`,
          );
        if (answer === null) continue;
        const since = answer.since.getTime();
        const until = answer.until?.getTime() ?? at + ON_CALL_HORIZON_DAYS * DAY;
        if (!(since <= at && at < until))
          throw new Error(
            `since ${answer.since.toISOString()} / until ${answer.until?.toISOString()} do not bound ${new Date(at).toISOString()}`,
          );
        const theirs = (instant: number) => oracle(instant)?.userId === answer.userId;
        if (!theirs(since) || !theirs(until - 1))
          throw new Error('the stretch does not begin and end with that person');
        if (since > at - ON_CALL_HORIZON_DAYS * DAY && theirs(since - 1))
          throw new Error('the stretch began earlier than since');
        if (answer.until !== null && theirs(until)) throw new Error('the stretch goes on past until');
        const stretch = renderSchedule(
          definition,
          new Date(since),
          new Date(Math.min(until, since + 30 * DAY)),
          isActive,
        );
        stretch.forEach((segment, index) => {
          const expectedStart = index === 0 ? since : stretch[index - 1]!.end.getTime();
          if (segment.userId !== answer.userId || segment.start.getTime() !== expectedStart)
            throw new Error('the stretch is broken inside');
        });
        if (stretch[stretch.length - 1]?.end.getTime() !== Math.min(until, since + 30 * DAY))
          throw new Error('the stretch stops short');
      }
    }),
    { numRuns: RUNS },
  );
  t.pass();
});
