import test from 'ava';
import { scheduleDecider } from '../commands/schedules.js';
import { scheduleBodySchema, scheduleChangeBodySchema } from '../src/contract/bodies/schedules.js';
import type { DomainRejection } from '../src/commanding/domain-rejection.js';
import type { ScheduleData, ScheduleEvent, ScheduleOverride } from '../src/events/schedule.js';
import { TEST_CONTEXT, deciderSpec } from './support/decider-spec.js';

const scheduleId = '11111111-1111-4111-8111-111111111111';
const alice = '22222222-2222-4222-8222-222222222222';
const override = (n: number): ScheduleOverride => ({
  overrideId: `33333333-3333-4333-8333-33333333333${n}`,
  userId: alice,
  start: '2026-01-01T00:00:00Z',
  end: '2026-01-02T00:00:00Z',
  reason: null,
});
const schedule: ScheduleData = {
  scheduleId,
  name: 'Primary',
  timezone: 'Europe/Berlin',
  layers: [{ userIds: [alice], rotationType: 'weekly', startTime: '2026-03-16T09:00:00' }],
  overrides: [override(1)],
};
const created: ScheduleEvent = { type: 'ScheduleCreated', data: schedule };
const deleted: ScheduleEvent = { type: 'ScheduleDeleted', data: { scheduleId } };

test('create records the whole schedule; twice is a conflict', (t) => {
  deciderSpec(t, scheduleDecider).given([]).when({ kind: 'CreateSchedule', schedule }).then([created]);
  deciderSpec(t, scheduleDecider).given([created]).when({ kind: 'CreateSchedule', schedule }).thenRejects('conflict');
});

test('an update without overrides keeps the ones the schedule has; with overrides it replaces them', (t) => {
  const { overrides: _o, scheduleId: _id, ...withoutOverrides } = schedule;
  deciderSpec(t, scheduleDecider)
    .given([created])
    .when({ kind: 'UpdateSchedule', scheduleId, changes: { ...withoutOverrides, name: 'Renamed' } })
    .then([{ type: 'ScheduleReplaced', data: { ...schedule, name: 'Renamed' } }]);
  deciderSpec(t, scheduleDecider)
    .given([created])
    .when({ kind: 'UpdateSchedule', scheduleId, changes: { ...withoutOverrides, overrides: [] } })
    .then([{ type: 'ScheduleReplaced', data: { ...schedule, overrides: [] } }]);
});

test('an update with some fields replaces those and keeps the others (SPEC.md: "Updates layers, timezone or overrides")', (t) => {
  deciderSpec(t, scheduleDecider)
    .given([created])
    .when({ kind: 'UpdateSchedule', scheduleId, changes: { timezone: 'Asia/Kolkata' } })
    .then([{ type: 'ScheduleReplaced', data: { ...schedule, timezone: 'Asia/Kolkata' } }]);
  const layers = [{ userIds: [alice], rotationType: 'daily' as const, startTime: '2026-04-01T08:00:00' }];
  deciderSpec(t, scheduleDecider)
    .given([created])
    .when({ kind: 'UpdateSchedule', scheduleId, changes: { layers } })
    .then([{ type: 'ScheduleReplaced', data: { ...schedule, layers } }]);
});

test('the merged schedule is checked whole: kept times that do not hold in a new zone are invalid, naming them', (t) => {
  // The end has no offset, so it is read in the schedule's zone: after the start in UTC, before it in Berlin.
  const utc: ScheduleEvent = {
    type: 'ScheduleCreated',
    data: {
      ...schedule,
      timezone: 'UTC',
      overrides: [{ ...override(1), start: '2026-01-01T10:00:00+00:00', end: '2026-01-01T10:30:00' }],
    },
  };
  const toBerlin = { kind: 'UpdateSchedule' as const, scheduleId, changes: { timezone: 'Europe/Berlin' } };
  deciderSpec(t, scheduleDecider)
    .given([utc])
    .when(toBerlin)
    .thenRejects('invalid', /Europe\/Berlin/);
  const error = t.throws(() =>
    scheduleDecider.decide(toBerlin, scheduleDecider.evolve(scheduleDecider.initialState(), utc), TEST_CONTEXT),
  ) as DomainRejection;
  t.deepEqual(error.errors, [{ path: '/overrides/0/end', message: 'must be after start' }]);
  const layers = [{ userIds: [alice], rotationType: 'daily' as const, startTime: 'yesterday' }];
  deciderSpec(t, scheduleDecider)
    .given([created])
    .when({ kind: 'UpdateSchedule', scheduleId, changes: { layers } })
    .thenRejects('invalid');
  deciderSpec(t, scheduleDecider)
    .given([])
    .when({ kind: 'UpdateSchedule', scheduleId, changes: { name: 'x' } })
    .thenRejects('not_found');
});

test('overrides are added after the others and removed by id; an unknown id is not found', (t) => {
  const added: ScheduleEvent = { type: 'ScheduleOverrideAdded', data: { scheduleId, override: override(2) } };
  deciderSpec(t, scheduleDecider)
    .given([created])
    .when({ kind: 'AddOverride', scheduleId, override: override(2) })
    .then([added]);
  deciderSpec(t, scheduleDecider)
    .given([created, added])
    .when({ kind: 'RemoveOverride', scheduleId, overrideId: override(1).overrideId })
    .then([{ type: 'ScheduleOverrideRemoved', data: { scheduleId, overrideId: override(1).overrideId } }]);
  deciderSpec(t, scheduleDecider)
    .given([created])
    .when({ kind: 'RemoveOverride', scheduleId, overrideId: override(9).overrideId })
    .thenRejects('not_found');
  const state = [created, added].reduce(scheduleDecider.evolve, scheduleDecider.initialState());
  t.deepEqual(
    state.schedule?.overrides.map((o) => o.overrideId),
    [override(1).overrideId, override(2).overrideId],
  );
});

test('every command on a deleted or missing schedule is not found', (t) => {
  for (const given of [[], [created, deleted]]) {
    deciderSpec(t, scheduleDecider).given(given).when({ kind: 'DeleteSchedule', scheduleId }).thenRejects('not_found');
    deciderSpec(t, scheduleDecider)
      .given(given)
      .when({ kind: 'AddOverride', scheduleId, override: override(2) })
      .thenRejects('not_found');
  }
});

const validLayer = { user_ids: [alice], rotation_type: 'daily', start_time: '2026-01-01T09:00:00' };
const bodyCases: [string, unknown, string[]][] = [
  ['a valid body', { name: 'n', timezone: 'Asia/Kolkata', layers: [validLayer] }, []],
  ['an unknown zone', { name: 'n', timezone: 'Europe/Atlantis', layers: [validLayer] }, ['timezone']],
  ['no layers', { name: 'n', timezone: 'UTC', layers: [] }, ['layers']],
  [
    'a start that is no date',
    { name: 'n', timezone: 'UTC', layers: [{ ...validLayer, start_time: '2026-13-01T00:00:00' }] },
    ['layers.0.start_time'],
  ],
  [
    'a user id that is no UUID',
    { name: 'n', timezone: 'UTC', layers: [{ ...validLayer, user_ids: ['alice'] }] },
    ['layers.0.user_ids.0'],
  ],
  [
    'an override ending before it starts',
    {
      name: 'n',
      timezone: 'UTC',
      layers: [validLayer],
      overrides: [{ user_id: alice, start: '2026-01-02T00:00:00', end: '2026-01-01T00:00:00' }],
    },
    ['overrides.0.end'],
  ],
  [
    'an override of zero length',
    {
      name: 'n',
      timezone: 'UTC',
      layers: [validLayer],
      overrides: [{ user_id: alice, start: '2026-01-01T00:00:00Z', end: '2026-01-01T01:00:00+01:00' }],
    },
    ['overrides.0.end'],
  ],
  ['an unknown field', { name: 'n', timezone: 'UTC', layers: [validLayer], owner: 'x' }, ['']],
];
for (const [title, body, paths] of bodyCases) {
  test(`schedule body: ${title}`, (t) => {
    const parsed = scheduleBodySchema.safeParse(body);
    t.deepEqual(parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.')).sort(), paths);
  });
}

const changeCases: [string, unknown, string[]][] = [
  ['a zone alone', { timezone: 'Europe/Berlin' }, []],
  ['is_active on a schedule', { is_active: false }, ['']],
  ['a read-only id', { id: scheduleId, name: 'n' }, ['']],
  ['an empty body', {}, ['']],
  ['an unknown zone', { timezone: 'Europe/Atlantis' }, ['timezone']],
  ['no layers', { layers: [] }, ['layers']],
];
for (const [title, body, paths] of changeCases) {
  test(`schedule change body: ${title}`, (t) => {
    const parsed = scheduleChangeBodySchema.safeParse(body);
    t.deepEqual(parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.')).sort(), paths);
  });
}
