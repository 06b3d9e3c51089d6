import test from 'ava';
import { layerHandoffs } from '../src/oncall/layer-rotation.js';
import type { Layer } from '../src/oncall/schedule-definition.js';
import { formatInZone } from '../src/oncall/zoned-iso.js';

/** Handoffs in [from, to) as the zone's ISO text, so each row reads as a local wall clock and offset. */
function handoffTexts(
  zone: string,
  rotationType: Layer['rotationType'],
  startTime: string,
  from: string,
  to: string,
): string[] {
  return layerHandoffs({ rotationType, startTime }, zone, new Date(from), new Date(to)).map((at) =>
    formatInZone(zone, at.getTime()),
  );
}

test('daily handoffs at 02:30 local across the DST changes of America/New_York', (t) => {
  const rows: [name: string, startTime: string, from: string, to: string, handoffs: string[]][] = [
    [
      'spring forward: 02:30 does not exist on 8 March and becomes 03:30',
      '2026-03-05T02:30:00-05:00',
      '2026-03-06T00:00:00Z',
      '2026-03-10T12:00:00Z',
      [
        '2026-03-06T02:30:00-05:00',
        '2026-03-07T02:30:00-05:00',
        '2026-03-08T03:30:00-04:00',
        '2026-03-09T02:30:00-04:00',
        '2026-03-10T02:30:00-04:00',
      ],
    ],
    [
      'fall back: 02:30 on 1 November happens once, after the repeat',
      '2026-10-29T02:30:00-04:00',
      '2026-10-30T00:00:00Z',
      '2026-11-02T12:00:00Z',
      [
        '2026-10-30T02:30:00-04:00',
        '2026-10-31T02:30:00-04:00',
        '2026-11-01T02:30:00-05:00',
        '2026-11-02T02:30:00-05:00',
      ],
    ],
    [
      'fall back: 01:30 on 1 November happens twice and takes the earlier',
      '2026-10-29T01:30:00-04:00',
      '2026-10-30T00:00:00Z',
      '2026-11-02T12:00:00Z',
      [
        '2026-10-30T01:30:00-04:00',
        '2026-10-31T01:30:00-04:00',
        '2026-11-01T01:30:00-04:00',
        '2026-11-02T01:30:00-05:00',
      ],
    ],
  ];
  t.deepEqual(
    rows.map(([name, startTime, from, to]) => [
      name,
      startTime,
      from,
      to,
      handoffTexts('America/New_York', 'daily', startTime, from, to),
    ]),
    rows,
  );
});

test('daily handoffs at 02:30 local across the DST changes of Europe/Berlin', (t) => {
  const rows: [name: string, startTime: string, from: string, to: string, handoffs: string[]][] = [
    [
      'spring forward on 29 March: 02:30 becomes 03:30',
      '2026-03-27T02:30:00+01:00',
      '2026-03-28T00:00:00Z',
      '2026-03-30T12:00:00Z',
      ['2026-03-28T02:30:00+01:00', '2026-03-29T03:30:00+02:00', '2026-03-30T02:30:00+02:00'],
    ],
    [
      'fall back on 25 October: 02:30 happens twice and takes the earlier',
      '2026-10-23T02:30:00+02:00',
      '2026-10-24T00:00:00Z',
      '2026-10-26T12:00:00Z',
      ['2026-10-24T02:30:00+02:00', '2026-10-25T02:30:00+02:00', '2026-10-26T02:30:00+01:00'],
    ],
  ];
  t.deepEqual(
    rows.map(([name, startTime, from, to]) => [
      name,
      startTime,
      from,
      to,
      handoffTexts('Europe/Berlin', 'daily', startTime, from, to),
    ]),
    rows,
  );
});

test('daily handoffs across the 30-minute DST changes of Australia/Lord_Howe', (t) => {
  const rows: [name: string, startTime: string, from: string, to: string, handoffs: string[]][] = [
    [
      '5 April: 01:45 happens twice (+11:00 then +10:30) and takes the earlier',
      '2026-04-03T01:45:00+11:00',
      '2026-04-03T12:00:00Z',
      '2026-04-06T12:00:00Z',
      ['2026-04-04T01:45:00+11:00', '2026-04-05T01:45:00+11:00', '2026-04-06T01:45:00+10:30'],
    ],
    [
      '4 October: 02:00 jumps to 02:30, so 02:15 becomes 02:45',
      '2026-10-02T02:15:00+10:30',
      '2026-10-02T12:00:00Z',
      '2026-10-05T12:00:00Z',
      ['2026-10-03T02:15:00+10:30', '2026-10-04T02:45:00+11:00', '2026-10-05T02:15:00+11:00'],
    ],
  ];
  t.deepEqual(
    rows.map(([name, startTime, from, to]) => [
      name,
      startTime,
      from,
      to,
      handoffTexts('Australia/Lord_Howe', 'daily', startTime, from, to),
    ]),
    rows,
  );
});

test('a weekly layer created in summer keeps its local handoff time in winter', (t) => {
  const rows: [zone: string, startTime: string, handoffs: string[]][] = [
    [
      'America/New_York',
      '2026-07-06T09:00:00-04:00',
      [
        '2026-12-07T09:00:00-05:00',
        '2026-12-14T09:00:00-05:00',
        '2026-12-21T09:00:00-05:00',
        '2026-12-28T09:00:00-05:00',
      ],
    ],
    [
      'Europe/Berlin',
      '2026-06-01T07:00:00Z',
      [
        '2026-12-07T09:00:00+01:00',
        '2026-12-14T09:00:00+01:00',
        '2026-12-21T09:00:00+01:00',
        '2026-12-28T09:00:00+01:00',
      ],
    ],
    [
      'Asia/Kolkata',
      '2026-07-06T09:00:00+05:30',
      [
        '2026-12-07T09:00:00+05:30',
        '2026-12-14T09:00:00+05:30',
        '2026-12-21T09:00:00+05:30',
        '2026-12-28T09:00:00+05:30',
      ],
    ],
  ];
  t.deepEqual(
    rows.map(([zone, startTime]) => [
      zone,
      startTime,
      handoffTexts(zone, 'weekly', startTime, '2026-12-01T00:00:00Z', '2027-01-01T00:00:00Z'),
    ]),
    rows,
  );
});

test('handoffs are taken from [from, to): the start counts as a handoff and nothing comes before it', (t) => {
  const startTime = '2026-03-01T09:00:00Z';
  const rows: [name: string, from: string, to: string, handoffs: string[]][] = [
    ['range before the start', '2026-02-01T00:00:00Z', '2026-03-01T09:00:00Z', []],
    [
      'range from the start',
      '2026-03-01T09:00:00Z',
      '2026-03-03T09:00:00Z',
      ['2026-03-01T09:00:00+00:00', '2026-03-02T09:00:00+00:00'],
    ],
    [
      'range across the start',
      '2026-02-27T00:00:00Z',
      '2026-03-02T09:00:00.001Z',
      ['2026-03-01T09:00:00+00:00', '2026-03-02T09:00:00+00:00'],
    ],
    ['range between handoffs', '2026-03-05T09:00:00.001Z', '2026-03-06T09:00:00Z', []],
    ['empty range', '2026-03-05T09:00:00Z', '2026-03-05T09:00:00Z', []],
  ];
  t.deepEqual(
    rows.map(([name, from, to]) => [name, from, to, handoffTexts('UTC', 'daily', startTime, from, to)]),
    rows,
  );
});

test('a start time without an offset is a wall clock in the schedule zone', (t) => {
  t.deepEqual(
    handoffTexts('Asia/Kolkata', 'daily', '2026-01-05T09:00:00', '2026-01-05T00:00:00Z', '2026-01-07T00:00:00Z'),
    ['2026-01-05T09:00:00+05:30', '2026-01-06T09:00:00+05:30'],
  );
});

test('a start in the second reading of a repeated hour starts there; later handoffs take the earlier reading', (t) => {
  t.deepEqual(
    handoffTexts(
      'America/New_York',
      'daily',
      '2026-11-01T01:30:00-05:00',
      '2026-11-01T00:00:00Z',
      '2026-11-03T12:00:00Z',
    ),
    ['2026-11-01T01:30:00-05:00', '2026-11-02T01:30:00-05:00', '2026-11-03T01:30:00-05:00'],
  );
});

test('an unknown zone or rotation type is refused', (t) => {
  t.throws(
    () =>
      layerHandoffs(
        { rotationType: 'daily', startTime: '2026-03-01T09:00:00Z' },
        'Mars/Base',
        new Date(0),
        new Date(1),
      ),
    { instanceOf: RangeError },
  );
  t.throws(
    () =>
      layerHandoffs(
        { rotationType: 'hourly' as Layer['rotationType'], startTime: '2026-03-01T09:00:00Z' },
        'UTC',
        new Date(0),
        new Date(1),
      ),
    { instanceOf: RangeError },
  );
});
