/**
 * The schedule editor's form model (src/dashboard/web/components/schedule-form.ts), table-driven:
 * saved times shown as wall clocks in the schedule's zone (with or without an offset, across a DST
 * change), the body the form sends (wall clocks without an offset, which the API reads in the zone),
 * and moving a person or a layer by one place.
 */
import test from 'ava';
import { draftOf, moved, scheduleForm, wallClockInput } from '../src/dashboard/web/components/schedule-form.js';

const WALL_CLOCKS: [string, string, string, string][] = [
  ['a wall clock is shown as it is', '2026-03-16T09:00:00', 'Europe/Berlin', '2026-03-16T09:00'],
  ['a wall clock with milliseconds', '2026-03-16T09:00:30.250', 'Europe/Berlin', '2026-03-16T09:00'],
  ['a date alone is midnight', '2026-03-16', 'Europe/Berlin', '2026-03-16T00:00'],
  ['UTC read in Berlin in winter (+01:00)', '2026-01-05T08:00:00Z', 'Europe/Berlin', '2026-01-05T09:00'],
  ['UTC read in Berlin in summer (+02:00)', '2026-07-05T07:00:00Z', 'Europe/Berlin', '2026-07-05T09:00'],
  ['an offset read in another zone', '2026-03-29T08:00:00+02:00', 'America/New_York', '2026-03-29T02:00'],
  ['a half-hour zone', '2026-01-15T03:30:00Z', 'Asia/Kolkata', '2026-01-15T09:00'],
  ['what does not read is left empty', 'tomorrow', 'UTC', ''],
];

for (const [title, saved, zone, shown] of WALL_CLOCKS) {
  test(`wallClockInput: ${title}`, (t) => {
    t.is(wallClockInput(saved, zone), shown);
  });
}

test('a saved schedule round-trips through the form as wall clocks in its zone, people in their order', (t) => {
  const form = scheduleForm({
    id: 's',
    name: 'Primary',
    timezone: 'Europe/Berlin',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    layers: [{ user_ids: ['b', 'a'], rotation_type: 'weekly', start_time: '2026-01-05T08:00:00Z' }],
    overrides: [
      { id: 'o', user_id: 'c', start: '2026-03-28T20:00:00+01:00', end: '2026-03-29T08:00:00+02:00', reason: null },
    ],
  });
  t.deepEqual(draftOf(form), {
    name: 'Primary',
    timezone: 'Europe/Berlin',
    layers: [{ user_ids: ['b', 'a'], rotation_type: 'weekly', start_time: '2026-01-05T09:00:00' }],
    overrides: [{ user_id: 'c', start: '2026-03-28T20:00:00', end: '2026-03-29T08:00:00', reason: null }],
  });
});

test('a new schedule starts in the browser zone with one empty weekly layer, and sends what is typed as typed', (t) => {
  const form = scheduleForm();
  t.is(form.timezone, Intl.DateTimeFormat().resolvedOptions().timeZone);
  t.is(form.layers.length, 1);
  t.deepEqual(form.layers[0]!.userIds, []);
  t.regex(form.layers[0]!.start, /^\d{4}-\d{2}-\d{2}T09:00$/);
  const draft = draftOf({
    ...form,
    name: ' x ',
    timezone: ' UTC ',
    layers: [{ ...form.layers[0]!, start: '' }],
    overrides: [{ key: 1, userId: '', start: 'soon', end: '', reason: '  ' }],
  });
  t.is(draft.timezone, 'UTC', 'the zone trimmed');
  t.is(draft.layers[0]!.start_time, '', 'an empty start goes as empty, so the API names it');
  t.deepEqual(draft.overrides[0], { user_id: '', start: 'soon', end: '', reason: null });
});

const MOVES: [string, string[], number, -1 | 1, string[]][] = [
  ['up', ['a', 'b', 'c'], 1, -1, ['b', 'a', 'c']],
  ['down', ['a', 'b', 'c'], 1, 1, ['a', 'c', 'b']],
  ['the first up: unchanged', ['a', 'b'], 0, -1, ['a', 'b']],
  ['the last down: unchanged', ['a', 'b'], 1, 1, ['a', 'b']],
];

for (const [title, list, index, by, after] of MOVES) {
  test(`moved: ${title}`, (t) => {
    t.deepEqual(moved(list, index, by), after);
    t.not(moved(list, index, by), list, 'a new list');
  });
}
