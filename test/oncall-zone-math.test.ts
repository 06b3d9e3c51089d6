import test from 'ava';
import { instantOfWallClock, isValidTimeZone, utcOffsetMs, wallClockAt } from '../src/oncall/zone-offsets.js';
import { formatInZone, formatUtcOffset, parseScheduleTime } from '../src/oncall/zoned-iso.js';

/** A wall clock written as ISO text without an offset, as the number zone-offsets.ts works with. */
const wall = (text: string) => Date.parse(`${text}Z`);
const utc = (text: string) => Date.parse(text);

test('UTC offsets at instants around DST changes and in zones with non-hour offsets', (t) => {
  const rows: [zone: string, instant: string, offsetMinutes: number][] = [
    ['America/New_York', '2026-01-15T12:00:00Z', -300],
    ['America/New_York', '2026-07-15T12:00:00Z', -240],
    ['America/New_York', '2026-03-08T06:59:59Z', -300],
    ['America/New_York', '2026-03-08T07:00:00Z', -240],
    ['America/New_York', '2026-11-01T05:59:59Z', -240],
    ['America/New_York', '2026-11-01T06:00:00Z', -300],
    ['Europe/Berlin', '2026-03-29T00:59:59Z', 60],
    ['Europe/Berlin', '2026-03-29T01:00:00Z', 120],
    ['Europe/Berlin', '2026-10-25T00:59:59Z', 120],
    ['Europe/Berlin', '2026-10-25T01:00:00Z', 60],
    ['Asia/Kolkata', '2026-06-01T00:00:00Z', 330],
    ['Asia/Kathmandu', '2026-06-01T00:00:00Z', 345],
    ['Australia/Lord_Howe', '2026-04-04T14:59:59Z', 660],
    ['Australia/Lord_Howe', '2026-04-04T15:00:00Z', 630],
    ['Australia/Lord_Howe', '2026-10-03T15:29:59Z', 630],
    ['Australia/Lord_Howe', '2026-10-03T15:30:00Z', 660],
    ['Pacific/Chatham', '2026-01-15T00:00:00Z', 825],
    ['America/St_Johns', '2026-01-15T00:00:00Z', -210],
    ['UTC', '2026-03-08T07:00:00Z', 0],
  ];
  t.deepEqual(
    rows.map(([zone, instant]) => [zone, instant, utcOffsetMs(zone, utc(instant)) / 60_000]),
    rows,
  );
});

test('an offset is exact to the second for local mean time before standard time', (t) => {
  t.is(utcOffsetMs('America/New_York', utc('1880-01-01T00:00:00Z')), -(4 * 3600 + 56 * 60 + 2) * 1000);
});

test('wall clock to instant: normal, skipped (moves forward by the gap) and repeated (earlier instant)', (t) => {
  const rows: [zone: string, wallClock: string, instant: string][] = [
    ['America/New_York', '2026-01-15T09:00', '2026-01-15T14:00:00.000Z'],
    ['America/New_York', '2026-03-08T01:59', '2026-03-08T06:59:00.000Z'],
    ['America/New_York', '2026-03-08T02:00', '2026-03-08T07:00:00.000Z'],
    ['America/New_York', '2026-03-08T02:30', '2026-03-08T07:30:00.000Z'],
    ['America/New_York', '2026-03-08T03:00', '2026-03-08T07:00:00.000Z'],
    ['America/New_York', '2026-11-01T00:59', '2026-11-01T04:59:00.000Z'],
    ['America/New_York', '2026-11-01T01:00', '2026-11-01T05:00:00.000Z'],
    ['America/New_York', '2026-11-01T01:30', '2026-11-01T05:30:00.000Z'],
    ['America/New_York', '2026-11-01T02:00', '2026-11-01T07:00:00.000Z'],
    ['Europe/Berlin', '2026-03-29T02:30', '2026-03-29T01:30:00.000Z'],
    ['Europe/Berlin', '2026-10-25T02:30', '2026-10-25T00:30:00.000Z'],
    ['Australia/Lord_Howe', '2026-10-04T02:15', '2026-10-03T15:45:00.000Z'],
    ['Australia/Lord_Howe', '2026-04-05T01:45', '2026-04-04T14:45:00.000Z'],
    ['Asia/Kolkata', '2026-03-08T02:30', '2026-03-07T21:00:00.000Z'],
  ];
  t.deepEqual(
    rows.map(([zone, wallClock]) => [
      zone,
      wallClock,
      new Date(instantOfWallClock(zone, wall(wallClock))).toISOString(),
    ]),
    rows,
  );
});

test('instant to wall clock shows both readings of a repeated hour', (t) => {
  t.is(wallClockAt('America/New_York', utc('2026-11-01T05:30:00Z')), wall('2026-11-01T01:30'));
  t.is(wallClockAt('America/New_York', utc('2026-11-01T06:30:00Z')), wall('2026-11-01T01:30'));
});

test('formatting an instant as ISO 8601 with the zone offset', (t) => {
  const rows: [zone: string, instant: string, text: string][] = [
    ['America/New_York', '2026-03-08T07:00:00Z', '2026-03-08T03:00:00-04:00'],
    ['America/New_York', '2026-03-08T06:59:59Z', '2026-03-08T01:59:59-05:00'],
    ['America/New_York', '2026-11-01T05:30:00Z', '2026-11-01T01:30:00-04:00'],
    ['America/New_York', '2026-11-01T06:30:00Z', '2026-11-01T01:30:00-05:00'],
    ['America/New_York', '2026-01-15T14:00:00.250Z', '2026-01-15T09:00:00.250-05:00'],
    ['Europe/Berlin', '2026-03-29T01:30:00Z', '2026-03-29T03:30:00+02:00'],
    ['Asia/Kolkata', '2026-01-15T03:30:00Z', '2026-01-15T09:00:00+05:30'],
    ['Australia/Lord_Howe', '2026-04-04T14:45:00Z', '2026-04-05T01:45:00+11:00'],
    ['Australia/Lord_Howe', '2026-04-04T15:15:00Z', '2026-04-05T01:45:00+10:30'],
    ['UTC', '2026-03-08T07:00:00Z', '2026-03-08T07:00:00+00:00'],
    ['America/New_York', '1880-01-01T00:00:00Z', '1879-12-31T19:03:58-04:56:02'],
  ];
  t.deepEqual(
    rows.map(([zone, instant]) => [zone, instant, formatInZone(zone, utc(instant))]),
    rows,
  );
});

test('UTC offsets as text', (t) => {
  t.deepEqual([0, 19_800_000, -14_400_000, -12_600_000, 37_800_000].map(formatUtcOffset), [
    '+00:00',
    '+05:30',
    '-04:00',
    '-03:30',
    '+10:30',
  ]);
});

test('IANA zone names are valid, anything else is not', (t) => {
  const rows: [name: string, valid: boolean][] = [
    ['America/New_York', true],
    ['Australia/Lord_Howe', true],
    ['Asia/Kolkata', true],
    ['UTC', true],
    ['US/Eastern', true],
    ['Mars/Olympus_Mons', false],
    ['Etc/Unknown', false],
    ['+05:00', false],
    ['-04:00', false],
    ['', false],
  ];
  t.deepEqual(
    rows.map(([name]) => [name, isValidTimeZone(name)]),
    rows,
  );
});

test('schedule times: offsets are instants, times without one are wall clocks in the zone', (t) => {
  const rows: [text: string, zone: string, instant: string][] = [
    ['2026-03-08T02:30:00-05:00', 'Europe/Berlin', '2026-03-08T07:30:00.000Z'],
    ['2026-03-08T02:30:00Z', 'America/New_York', '2026-03-08T02:30:00.000Z'],
    ['2026-03-08T02:30:00+0530', 'UTC', '2026-03-07T21:00:00.000Z'],
    ['2026-03-08T02:30:00.5+05', 'UTC', '2026-03-07T21:30:00.500Z'],
    ['2026-03-08T02:30', 'America/New_York', '2026-03-08T07:30:00.000Z'],
    ['2026-11-01T01:30:00', 'America/New_York', '2026-11-01T05:30:00.000Z'],
    ['2026-03-08', 'Asia/Kolkata', '2026-03-07T18:30:00.000Z'],
  ];
  t.deepEqual(
    rows.map(([text, zone]) => [text, zone, new Date(parseScheduleTime(text, zone)).toISOString()]),
    rows,
  );
});

test('schedule times that are not real dates and times are refused', (t) => {
  for (const text of [
    '2026-02-30T00:00:00Z',
    '2026-03-08T24:00:00Z',
    '2026-03-08T12:60:00Z',
    '2026-3-8',
    'yesterday',
    '2026-03-08T02:30+25:00',
    '',
  ]) {
    t.throws(() => parseScheduleTime(text, 'UTC'), { instanceOf: RangeError }, text);
  }
});
