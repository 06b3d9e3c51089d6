/**
 * The "who gets paged?" panel's words (src/dashboard/web/escalation-preview-words.ts), table-driven:
 * which part of an editor's draft is asked about (targets not chosen yet left out, a stage without
 * any said so, a blank name stood in for), when a stage fires, who a recipient or an unreachable
 * target is, and a refused draft's field errors in the form's words.
 */
import test from 'ava';
import type { EscalationPolicyDraft, PreviewRecipient, PreviewUnreachable } from '../src/dashboard/web/api/types.js';
import {
  fireClock,
  instantOf,
  placeOf,
  PREVIEW_NAME,
  previewableDraft,
  problemsInWords,
  recipientName,
  stageTitle,
  unreachableName,
  whenItFires,
} from '../src/dashboard/web/escalation-preview-words.js';

const target = (id: string) => ({ type: 'user' as const, id, channels: ['email' as const] });
const draft = (name: string, ...stages: string[][]): EscalationPolicyDraft => ({
  name,
  description: null,
  repeat_interval_minutes: 0,
  stages: stages.map((ids, index) => ({
    stage_order: index + 1,
    delay_minutes: index === 0 ? 0 : 15,
    targets: ids.map(target),
  })),
});

test('a draft is asked about with its unchosen targets left out, under one name whatever is typed', (t) => {
  const asked = previewableDraft(draft('  ', ['u1', ''], ['u2']));
  t.deepEqual(asked, { kind: 'ask', draft: draft(PREVIEW_NAME, ['u1'], ['u2']) });
  const named = previewableDraft({ ...draft('Ops on-call', ['u1']), description: 'nights' });
  t.deepEqual(
    named,
    { kind: 'ask', draft: draft(PREVIEW_NAME, ['u1']) },
    'name and description do not change who is paged',
  );
});

const NOT_YET: [string, string[][], string][] = [
  ['a new policy with nothing chosen', [['']], 'Choose a target for stage 1 to see who gets paged.'],
  ['one empty stage among others', [['u1'], [''], ['u2']], 'Choose a target for stage 2 to see who gets paged.'],
  ['several empty stages', [[''], ['u1'], [''], ['']], 'Choose a target for stages 1, 3 and 4 to see who gets paged.'],
];
for (const [title, stages, why] of NOT_YET) {
  test(`not asked yet: ${title}`, (t) =>
    t.deepEqual(previewableDraft(draft('P', ...stages)), { kind: 'not-yet', why }));
}

const WHEN: [number, string][] = [
  [0, 'at once'],
  [1, 'after 1 min'],
  [15, 'after 15 min'],
  [60, 'after 1 h'],
  [90, 'after 1 h 30 min'],
  [125, 'after 2 h 5 min'],
];
for (const [minutes, words] of WHEN)
  test(`${minutes} minutes after the trigger reads "${words}"`, (t) => t.is(whenItFires(minutes), words));

test('stage titles name the repeat cycle after the first pass', (t) => {
  t.is(stageTitle({ stage_order: 2, cycle: 0 }), 'Stage 2');
  t.is(stageTitle({ stage_order: 1, cycle: 1 }), 'Stage 1, repeat 1');
});

test('the fire clock adds the day only when the stage fires on another day than the trigger', (t) => {
  const sameDay = fireClock('2026-03-12T12:15:00.000Z', '2026-03-12T12:00:00.000Z');
  const nextDay = fireClock('2026-03-14T12:15:00.000Z', '2026-03-12T12:00:00.000Z');
  t.regex(sameDay, /\d{1,2}\D\d{2}/);
  t.true(nextDay.endsWith(fireClock('2026-03-14T12:15:00.000Z', '2026-03-14T12:00:00.000Z')), 'the same clock time');
  t.true(nextDay.length > sameDay.length, 'with the day before it');
});

const via = (type: 'user' | 'group' | 'schedule' | 'channel', name: string | null) => ({ type, id: 'x', name });
test('recipients and unreachable targets by name; a deleted target said so', (t) => {
  const base = {
    medium: 'email',
    address: 'a***@example.com',
    delivery_target: 'a',
    why: 'named by the stage',
    on_call: null,
  } as const;
  t.is(
    recipientName({
      ...base,
      person: { id: 'p', name: 'Ada' },
      channel: null,
      via: via('group', 'Ops'),
    } as PreviewRecipient),
    'Ada',
  );
  t.is(
    recipientName({
      ...base,
      person: null,
      channel: { id: 'c', name: 'ops chat', type: 'chat' },
      via: via('channel', 'ops chat'),
    } as PreviewRecipient),
    'ops chat',
  );
  t.is(
    unreachableName({
      person: { id: 'p', name: 'Nophone' },
      via: via('user', 'Nophone'),
      medium: 'sms',
      reason: 'the user has no phone number',
    } as PreviewUnreachable),
    'Nophone',
  );
  t.is(
    unreachableName({
      person: null,
      via: via('group', 'Nights'),
      medium: null,
      reason: 'the group has no active members',
    }),
    'Nights',
  );
  t.is(
    unreachableName({
      person: null,
      via: via('schedule', null),
      medium: null,
      reason: 'the schedule no longer exists',
    }),
    'a schedule that no longer exists',
  );
});

const PLACES: [string, string][] = [
  ['/name', 'name'],
  ['/repeat_interval_minutes', 'repeat interval'],
  ['/stages', 'stages'],
  ['/stages/1', 'stage 2'],
  ['/stages/1/delay_minutes', 'stage 2 delay'],
  ['/stages/0/targets', 'stage 1 targets'],
  ['/stages/0/targets/1', 'stage 1 target 2'],
  ['/stages/0/targets/1/channels/0', 'stage 1 target 2'],
  ['', 'the policy'],
];
for (const [path, place] of PLACES)
  test(`a field error at "${path}" is said as "${place}"`, (t) => t.is(placeOf(path), place));

test("a refused draft's problems in the form's words, each once", (t) => {
  t.deepEqual(
    problemsInWords([
      { path: '/stages/1/delay_minutes', message: 'must be at least 1' },
      { path: '/stages/1/delay_minutes', message: 'must be at least 1' },
      { path: '/stages/0/targets/0', message: 'no such user' },
    ]),
    ['stage 2 delay: must be at least 1', 'stage 1 target 1: no such user'],
  );
});

const INSTANTS: [string, boolean][] = [
  ['', false],
  ['2026-03-12', false],
  ['2026-03-12T09:', false],
  ['2026-03-12T09:30', true],
  ['2026-13-40T09:30', false],
];
for (const [local, valid] of INSTANTS) {
  test(`"${local}" as the trigger instant ${valid ? 'names that wall clock' : 'means now'}`, (t) => {
    const instant = instantOf(local);
    if (!valid) return t.is(instant, undefined);
    t.is(instant!.getHours(), 9);
    t.is(instant!.getMinutes(), 30);
  });
}
