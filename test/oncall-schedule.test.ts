import test from 'ava';
import { currentOnCall } from '../src/oncall/current-on-call.js';
import { renderSchedule } from '../src/oncall/render-schedule.js';
import type {
  CurrentOnCall,
  IsActiveUser,
  Layer,
  Override,
  ScheduleDefinition,
  ScheduleSegment,
} from '../src/oncall/schedule-definition.js';
import { formatInZone } from '../src/oncall/zoned-iso.js';

const everyoneActive: IsActiveUser = () => true;
const allBut =
  (...inactive: string[]): IsActiveUser =>
  (userId) =>
    !inactive.includes(userId);

const daily = (userIds: string[], startTime: string): Layer => ({ userIds, rotationType: 'daily', startTime });
const weekly = (userIds: string[], startTime: string): Layer => ({ userIds, rotationType: 'weekly', startTime });
const override = (id: string, userId: string, start: string, end: string): Override => ({ id, userId, start, end });
const schedule = (timezone: string, layers: Layer[], overrides: Override[] = []): ScheduleDefinition => ({
  timezone,
  layers,
  overrides,
});

const sourceOf = (part: ScheduleSegment | CurrentOnCall) =>
  part.source === 'layer' ? `layer ${part.layerIndex}` : `override ${part.overrideId}`;

/** Segments as [user, start, end, source] in the schedule's zone: rows a reader can check by eye. */
function rendered(definition: ScheduleDefinition, from: string, to: string, isActive = everyoneActive) {
  return renderSchedule(definition, new Date(from), new Date(to), isActive).map((segment) => [
    segment.userId,
    formatInZone(definition.timezone, segment.start.getTime()),
    formatInZone(definition.timezone, segment.end.getTime()),
    sourceOf(segment),
  ]);
}

/** The answer as [user, source, since, until] in the schedule's zone, or null. */
function onCall(definition: ScheduleDefinition, at: string, isActive = everyoneActive) {
  const answer = currentOnCall(definition, new Date(at), isActive);
  if (answer === null) return null;
  const text = (date: Date | null) => (date === null ? null : formatInZone(definition.timezone, date.getTime()));
  return [answer.userId, sourceOf(answer), text(answer.since), text(answer.until)];
}

test('start time after, at and before the asked instant', (t) => {
  const threeUsers = schedule('UTC', [daily(['a', 'b', 'c'], '2026-03-01T09:00:00Z')]);
  const rows: [name: string, at: string, answer: (string | null)[] | null][] = [
    ['start after the instant: nobody yet', '2026-03-01T08:59:59.999Z', null],
    [
      'start at the instant: turn 0',
      '2026-03-01T09:00:00Z',
      ['a', 'layer 0', '2026-03-01T09:00:00+00:00', '2026-03-02T09:00:00+00:00'],
    ],
    [
      'last millisecond of turn 0',
      '2026-03-02T08:59:59.999Z',
      ['a', 'layer 0', '2026-03-01T09:00:00+00:00', '2026-03-02T09:00:00+00:00'],
    ],
    [
      'start before the instant: turn 4 is userIds[1]',
      '2026-03-05T15:00:00Z',
      ['b', 'layer 0', '2026-03-05T09:00:00+00:00', '2026-03-06T09:00:00+00:00'],
    ],
  ];
  t.deepEqual(
    rows.map(([name, at]) => [name, at, onCall(threeUsers, at)]),
    rows,
  );
});

test('a one-user layer is one stretch; its end lies beyond the horizon and an old start is clamped to it', (t) => {
  const solo = schedule('UTC', [daily(['solo'], '2026-03-01T09:00:00Z')]);
  t.deepEqual(rendered(solo, '2026-03-01T00:00:00Z', '2026-03-05T00:00:00Z'), [
    ['solo', '2026-03-01T09:00:00+00:00', '2026-03-05T00:00:00+00:00', 'layer 0'],
  ]);
  t.deepEqual(onCall(solo, '2026-03-10T00:00:00Z'), ['solo', 'layer 0', '2026-03-01T09:00:00+00:00', null]);
  t.deepEqual(onCall(solo, '2026-09-01T00:00:00Z'), ['solo', 'layer 0', '2026-06-03T00:00:00+00:00', null]);
});

test('empty layers have nobody and let the layers below show', (t) => {
  t.deepEqual(
    rendered(schedule('UTC', [daily([], '2026-03-01T00:00:00Z')]), '2026-03-01T00:00:00Z', '2026-03-03T00:00:00Z'),
    [],
  );
  t.is(onCall(schedule('UTC', [daily([], '2026-03-01T00:00:00Z')]), '2026-03-02T00:00:00Z'), null);
  t.is(onCall(schedule('UTC', []), '2026-03-02T00:00:00Z'), null);
  const covered = schedule('UTC', [daily(['a'], '2026-03-01T00:00:00Z'), weekly([], '2026-03-01T00:00:00Z')]);
  t.deepEqual(onCall(covered, '2026-03-02T00:00:00Z'), ['a', 'layer 0', '2026-03-01T00:00:00+00:00', null]);
});

test('stacked layers with gaps: nobody before the first start, upper layers cover lower ones once they have somebody', (t) => {
  const stacked = schedule('UTC', [
    daily(['a', 'b'], '2026-03-02T00:00:00Z'),
    weekly(['x'], '2026-03-03T12:00:00Z'),
    daily(['ghost'], '2026-03-01T00:00:00Z'),
  ]);
  const isActive = allBut('ghost');
  t.deepEqual(rendered(stacked, '2026-03-01T00:00:00Z', '2026-03-05T00:00:00Z', isActive), [
    ['a', '2026-03-02T00:00:00+00:00', '2026-03-03T00:00:00+00:00', 'layer 0'],
    ['b', '2026-03-03T00:00:00+00:00', '2026-03-03T12:00:00+00:00', 'layer 0'],
    ['x', '2026-03-03T12:00:00+00:00', '2026-03-05T00:00:00+00:00', 'layer 1'],
  ]);
  t.is(onCall(stacked, '2026-03-01T12:00:00Z', isActive), null);
  t.deepEqual(onCall(stacked, '2026-03-03T06:00:00Z', isActive), [
    'b',
    'layer 0',
    '2026-03-03T00:00:00+00:00',
    '2026-03-03T12:00:00+00:00',
  ]);
});

test('an override spanning handoffs of two layers beats them all for its whole length', (t) => {
  const covered = schedule(
    'UTC',
    [daily(['a', 'b'], '2026-03-01T00:00:00Z'), weekly(['x'], '2026-03-04T00:00:00Z')],
    [override('o1', 'z', '2026-03-02T06:00:00Z', '2026-03-05T06:00:00Z')],
  );
  t.deepEqual(rendered(covered, '2026-03-01T00:00:00Z', '2026-03-06T00:00:00Z'), [
    ['a', '2026-03-01T00:00:00+00:00', '2026-03-02T00:00:00+00:00', 'layer 0'],
    ['b', '2026-03-02T00:00:00+00:00', '2026-03-02T06:00:00+00:00', 'layer 0'],
    ['z', '2026-03-02T06:00:00+00:00', '2026-03-05T06:00:00+00:00', 'override o1'],
    ['x', '2026-03-05T06:00:00+00:00', '2026-03-06T00:00:00+00:00', 'layer 1'],
  ]);
  t.deepEqual(onCall(covered, '2026-03-03T00:00:00Z'), [
    'z',
    'override o1',
    '2026-03-02T06:00:00+00:00',
    '2026-03-05T06:00:00+00:00',
  ]);
});

test('overlapping overrides: the one added last wins; inactive, empty and reversed ones never apply', (t) => {
  const base = [daily(['a'], '2026-03-01T00:00:00Z')];
  const early = override('o1', 'y', '2026-03-02T10:00:00Z', '2026-03-02T14:00:00Z');
  const late = override('o2', 'z', '2026-03-02T12:00:00Z', '2026-03-02T16:00:00Z');
  const rows: [name: string, overrides: Override[], segments: string[][]][] = [
    [
      'later in the array wins the overlap',
      [early, late],
      [
        ['a', '2026-03-02T00:00:00+00:00', '2026-03-02T10:00:00+00:00', 'layer 0'],
        ['y', '2026-03-02T10:00:00+00:00', '2026-03-02T12:00:00+00:00', 'override o1'],
        ['z', '2026-03-02T12:00:00+00:00', '2026-03-02T16:00:00+00:00', 'override o2'],
        ['a', '2026-03-02T16:00:00+00:00', '2026-03-03T00:00:00+00:00', 'layer 0'],
      ],
    ],
    [
      'same overrides in the other order',
      [late, early],
      [
        ['a', '2026-03-02T00:00:00+00:00', '2026-03-02T10:00:00+00:00', 'layer 0'],
        ['y', '2026-03-02T10:00:00+00:00', '2026-03-02T14:00:00+00:00', 'override o1'],
        ['z', '2026-03-02T14:00:00+00:00', '2026-03-02T16:00:00+00:00', 'override o2'],
        ['a', '2026-03-02T16:00:00+00:00', '2026-03-03T00:00:00+00:00', 'layer 0'],
      ],
    ],
    [
      'a later short override splits an earlier long one',
      [
        override('o1', 'y', '2026-03-02T08:00:00Z', '2026-03-02T20:00:00Z'),
        override('o2', 'z', '2026-03-02T10:00:00Z', '2026-03-02T12:00:00Z'),
      ],
      [
        ['a', '2026-03-02T00:00:00+00:00', '2026-03-02T08:00:00+00:00', 'layer 0'],
        ['y', '2026-03-02T08:00:00+00:00', '2026-03-02T10:00:00+00:00', 'override o1'],
        ['z', '2026-03-02T10:00:00+00:00', '2026-03-02T12:00:00+00:00', 'override o2'],
        ['y', '2026-03-02T12:00:00+00:00', '2026-03-02T20:00:00+00:00', 'override o1'],
        ['a', '2026-03-02T20:00:00+00:00', '2026-03-03T00:00:00+00:00', 'layer 0'],
      ],
    ],
    [
      'overrides of inactive users, empty and reversed overrides are ignored',
      [
        early,
        override('o3', 'gone', '2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z'),
        override('o4', 'z', '2026-03-02T18:00:00Z', '2026-03-02T18:00:00Z'),
        override('o5', 'z', '2026-03-02T20:00:00Z', '2026-03-02T19:00:00Z'),
      ],
      [
        ['a', '2026-03-02T00:00:00+00:00', '2026-03-02T10:00:00+00:00', 'layer 0'],
        ['y', '2026-03-02T10:00:00+00:00', '2026-03-02T14:00:00+00:00', 'override o1'],
        ['a', '2026-03-02T14:00:00+00:00', '2026-03-03T00:00:00+00:00', 'layer 0'],
      ],
    ],
  ];
  t.deepEqual(
    rows.map(([name, overrides]) => [
      name,
      overrides,
      rendered(schedule('UTC', base, overrides), '2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z', allBut('gone')),
    ]),
    rows,
  );
});

test('a deactivated user in the middle of a rotation hands their turns to the next active user', (t) => {
  const rotation = schedule('UTC', [daily(['a', 'b', 'c', 'd'], '2026-03-01T00:00:00Z')]);
  t.deepEqual(rendered(rotation, '2026-03-01T00:00:00Z', '2026-03-09T00:00:00Z', allBut('c')), [
    ['a', '2026-03-01T00:00:00+00:00', '2026-03-02T00:00:00+00:00', 'layer 0'],
    ['b', '2026-03-02T00:00:00+00:00', '2026-03-03T00:00:00+00:00', 'layer 0'],
    ['d', '2026-03-03T00:00:00+00:00', '2026-03-05T00:00:00+00:00', 'layer 0'],
    ['a', '2026-03-05T00:00:00+00:00', '2026-03-06T00:00:00+00:00', 'layer 0'],
    ['b', '2026-03-06T00:00:00+00:00', '2026-03-07T00:00:00+00:00', 'layer 0'],
    ['d', '2026-03-07T00:00:00+00:00', '2026-03-09T00:00:00+00:00', 'layer 0'],
  ]);
  t.deepEqual(onCall(rotation, '2026-03-03T12:00:00Z', allBut('c')), [
    'd',
    'layer 0',
    '2026-03-03T00:00:00+00:00',
    '2026-03-05T00:00:00+00:00',
  ]);
  // Past the end of the list the next active user is found from the top.
  t.deepEqual(onCall(rotation, '2026-03-04T12:00:00Z', allBut('c', 'd')), [
    'a',
    'layer 0',
    '2026-03-03T00:00:00+00:00',
    '2026-03-06T00:00:00+00:00',
  ]);
  t.is(onCall(rotation, '2026-03-04T12:00:00Z', allBut('a', 'b', 'c', 'd')), null);
});

test("the continuous stretch joins a person's layer turn and their own override; rendering keeps them apart", (t) => {
  const selfCover = schedule(
    'UTC',
    [daily(['a', 'b'], '2026-03-01T00:00:00Z')],
    [override('o1', 'a', '2026-03-02T00:00:00Z', '2026-03-02T12:00:00Z')],
  );
  t.deepEqual(rendered(selfCover, '2026-03-01T00:00:00Z', '2026-03-03T00:00:00Z'), [
    ['a', '2026-03-01T00:00:00+00:00', '2026-03-02T00:00:00+00:00', 'layer 0'],
    ['a', '2026-03-02T00:00:00+00:00', '2026-03-02T12:00:00+00:00', 'override o1'],
    ['b', '2026-03-02T12:00:00+00:00', '2026-03-03T00:00:00+00:00', 'layer 0'],
  ]);
  t.deepEqual(onCall(selfCover, '2026-03-01T12:00:00Z'), [
    'a',
    'layer 0',
    '2026-03-01T00:00:00+00:00',
    '2026-03-02T12:00:00+00:00',
  ]);
  t.deepEqual(onCall(selfCover, '2026-03-02T06:00:00Z'), [
    'a',
    'override o1',
    '2026-03-01T00:00:00+00:00',
    '2026-03-02T12:00:00+00:00',
  ]);
});

test('on call since and until across DST changes and in zones with non-hour offsets', (t) => {
  const rows: [zone: string, startTime: string, at: string, answer: (string | null)[]][] = [
    [
      'America/New_York',
      '2026-03-06T02:30:00',
      '2026-03-08T12:00:00-04:00',
      ['a', 'layer 0', '2026-03-08T03:30:00-04:00', '2026-03-09T02:30:00-04:00'],
    ],
    [
      'America/New_York',
      '2026-10-30T02:30:00',
      '2026-11-01T12:00:00-05:00',
      ['a', 'layer 0', '2026-11-01T02:30:00-05:00', '2026-11-02T02:30:00-05:00'],
    ],
    [
      'Europe/Berlin',
      '2026-03-27T02:30:00',
      '2026-03-29T12:00:00+02:00',
      ['a', 'layer 0', '2026-03-29T03:30:00+02:00', '2026-03-30T02:30:00+02:00'],
    ],
    [
      'Europe/Berlin',
      '2026-10-23T02:30:00',
      '2026-10-25T12:00:00+01:00',
      ['a', 'layer 0', '2026-10-25T02:30:00+02:00', '2026-10-26T02:30:00+01:00'],
    ],
    [
      'Asia/Kolkata',
      '2026-01-05T09:00:00',
      '2026-01-06T08:59:59+05:30',
      ['a', 'layer 0', '2026-01-05T09:00:00+05:30', '2026-01-06T09:00:00+05:30'],
    ],
    [
      'Australia/Lord_Howe',
      '2026-04-03T01:45:00',
      '2026-04-05T12:00:00+10:30',
      ['a', 'layer 0', '2026-04-05T01:45:00+11:00', '2026-04-06T01:45:00+10:30'],
    ],
    [
      'Australia/Lord_Howe',
      '2026-10-02T02:15:00',
      '2026-10-04T12:00:00+11:00',
      ['a', 'layer 0', '2026-10-04T02:45:00+11:00', '2026-10-05T02:15:00+11:00'],
    ],
  ];
  t.deepEqual(
    rows.map(([zone, startTime, at]) => [
      zone,
      startTime,
      at,
      onCall(schedule(zone, [daily(['a', 'b'], startTime)]), at),
    ]),
    rows,
  );
});

test('an instant inside a repeated or skipped hour is placed by instants, not by its wall clock', (t) => {
  const rows: [name: string, startTime: string, at: string, answer: (string | null)[]][] = [
    [
      'second 01:15 of 1 November comes after the 01:30 handoff (first reading)',
      '2026-10-30T01:30:00',
      '2026-11-01T01:15:00-05:00',
      ['a', 'layer 0', '2026-11-01T01:30:00-04:00', '2026-11-02T01:30:00-05:00'],
    ],
    [
      '03:10 on 8 March comes before the 02:30 handoff that moved to 03:30',
      '2026-03-06T02:30:00',
      '2026-03-08T03:10:00-04:00',
      ['b', 'layer 0', '2026-03-07T02:30:00-05:00', '2026-03-08T03:30:00-04:00'],
    ],
  ];
  t.deepEqual(
    rows.map(([name, startTime, at]) => [
      name,
      startTime,
      at,
      onCall(schedule('America/New_York', [daily(['a', 'b'], startTime)]), at),
    ]),
    rows,
  );
});

test('rendering in a zone with a half-hour offset cuts at local handoffs and at the range edges', (t) => {
  const kolkata = schedule('Asia/Kolkata', [daily(['a', 'b'], '2026-01-05T09:00:00')]);
  t.deepEqual(rendered(kolkata, '2026-01-05T00:00:00Z', '2026-01-07T00:00:00Z'), [
    ['a', '2026-01-05T09:00:00+05:30', '2026-01-06T09:00:00+05:30', 'layer 0'],
    ['b', '2026-01-06T09:00:00+05:30', '2026-01-07T05:30:00+05:30', 'layer 0'],
  ]);
});

test('bad definitions and ranges', (t) => {
  const at = new Date('2026-03-02T00:00:00Z');
  t.throws(() => currentOnCall(schedule('Mars/Base', []), at, everyoneActive), {
    instanceOf: RangeError,
    message: /time zone/,
  });
  t.throws(() => currentOnCall(schedule('UTC', [daily(['a'], 'soon')]), at, everyoneActive), {
    instanceOf: RangeError,
    message: /layers\[0\]/,
  });
  t.throws(() => currentOnCall(schedule('UTC', [], [override('o1', 'a', '2026-03-01', 'later')]), at, everyoneActive), {
    instanceOf: RangeError,
    message: /overrides\[0\]/,
  });
  t.throws(() => currentOnCall(schedule('UTC', []), new Date(Number.NaN), everyoneActive), { instanceOf: RangeError });
  t.deepEqual(renderSchedule(schedule('UTC', [daily(['a'], '2026-03-01T00:00:00Z')]), at, at, everyoneActive), []);
});
