/** Every body rule of POST /escalation-policies: a 400 naming exactly the offending paths, and nothing stored. */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { onCall, policy, POLICIES, stage, withTarget } from './support/escalation-policy-fixtures.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

const create = (caller: Caller, body: unknown) => app.request('POST', POLICIES, { caller, body });
const listIds = async (caller: Caller) =>
  (await app.request('GET', POLICIES, { caller })).body.data.map((p: { id: string }) => p.id);

const invalidBodies: [string, unknown, string[]][] = [
  ['no stages', { ...policy, stages: [] }, ['/stages']],
  ['stages missing', { name: 'x' }, ['/stages']],
  ['a gap in stage_order', { ...policy, stages: [stage(1, 0), stage(3, 5)] }, ['/stages/1/stage_order']],
  ['stage_order not starting at 1', { ...policy, stages: [stage(2, 0)] }, ['/stages/0/stage_order']],
  [
    'stages listed out of order',
    { ...policy, stages: [stage(2, 5), stage(1, 0)] },
    ['/stages/0/stage_order', '/stages/1/stage_order'],
  ],
  ['a repeated stage_order', { ...policy, stages: [stage(1, 0), stage(1, 5)] }, ['/stages/1/stage_order']],
  ['a first stage with a delay', { ...policy, stages: [stage(1, 5)] }, ['/stages/0/delay_minutes']],
  ['a first stage with a negative delay', { ...policy, stages: [stage(1, -1)] }, ['/stages/0/delay_minutes']],
  ['a fractional stage_order', { ...policy, stages: [stage(1, 0), stage(1.5, 5)] }, ['/stages/1/stage_order']],
  ['a later stage without delay', { ...policy, stages: [stage(1, 0), stage(2, 0)] }, ['/stages/1/delay_minutes']],
  ['a negative delay', { ...policy, stages: [stage(1, 0), stage(2, -5)] }, ['/stages/1/delay_minutes']],
  ['a fractional delay', { ...policy, stages: [stage(1, 0), stage(2, 1.5)] }, ['/stages/1/delay_minutes']],
  ['a delay over one week', { ...policy, stages: [stage(1, 0), stage(2, 10081)] }, ['/stages/1/delay_minutes']],
  ['a negative repeat interval', { ...policy, repeat_interval_minutes: -1 }, ['/repeat_interval_minutes']],
  ['a fractional repeat interval', { ...policy, repeat_interval_minutes: 2.5 }, ['/repeat_interval_minutes']],
  ['a repeat interval as text', { ...policy, repeat_interval_minutes: '10' }, ['/repeat_interval_minutes']],
  ['a stage without targets', { ...policy, stages: [stage(1, 0, [])] }, ['/stages/0/targets']],
  ['a user target without channels', withTarget({ type: 'user', id: randomUUID() }), ['/stages/0/targets/0/channels']],
  [
    'a group target with empty channels',
    withTarget({ type: 'group', id: randomUUID(), channels: [] }),
    ['/stages/0/targets/0/channels'],
  ],
  [
    'a schedule target without channels',
    withTarget({ type: 'schedule', id: randomUUID() }),
    ['/stages/0/targets/0/channels'],
  ],
  ['an unknown delivery channel', withTarget({ ...onCall, channels: ['pigeon'] }), ['/stages/0/targets/0/channels/0']],
  [
    'a delivery channel listed twice',
    withTarget({ ...onCall, channels: ['sms', 'sms'] }),
    ['/stages/0/targets/0/channels'],
  ],
  [
    'channels on a channel target',
    withTarget({ type: 'channel', id: randomUUID(), channels: ['email'] }),
    ['/stages/0/targets/0/channels'],
  ],
  ['an unknown target type', withTarget({ ...onCall, type: 'team' }), ['/stages/0/targets/0/type']],
  ['a target id that is not a UUID', withTarget({ ...onCall, id: 'ops' }), ['/stages/0/targets/0/id']],
  ['the same target twice in a stage', { ...policy, stages: [stage(1, 0, [onCall, onCall])] }, ['/stages/0/targets/1']],
  ['an unknown top-level field', { ...policy, urgency: 'high' }, ['/']],
  ['an unknown stage field', { ...policy, stages: [{ ...stage(1, 0), escalate_to: 'x' }] }, ['/stages/0']],
  ['an unknown target field', withTarget({ ...onCall, phone: '+100' }), ['/stages/0/targets/0']],
  ['a missing name', { stages: policy.stages }, ['/name']],
  ['a blank name', { ...policy, name: '  ' }, ['/name']],
  ['a body that is not an object', [policy], ['']],
  [
    'a user that does not exist',
    withTarget({ type: 'user', id: randomUUID(), channels: ['email'] }),
    ['/stages/0/targets/0/id'],
  ],
  [
    'a group that does not exist',
    withTarget({ type: 'group', id: randomUUID(), channels: ['chat'] }),
    ['/stages/0/targets/0/id'],
  ],
  [
    'a channel that does not exist',
    { ...policy, stages: [stage(1, 0, [onCall, { type: 'channel', id: randomUUID() }])] },
    ['/stages/0/targets/0/id', '/stages/0/targets/1/id'],
  ],
  ['a schedule that does not exist', withTarget(onCall), ['/stages/0/targets/0/id']],
];

for (const [title, body, paths] of invalidBodies) {
  test(`400 naming the problem for ${title}, and nothing is created`, async (t) => {
    const caller = app.newTenant();
    const response = await create(caller, body);
    t.is(response.status, 400);
    t.is(response.headers.get('content-type'), 'application/problem+json');
    const reported = (response.body.errors as { path: string }[]).map((e) => e.path);
    t.deepEqual([...reported].sort(), [...paths].sort());
    t.deepEqual(await listIds(caller), []);
  });
}

test('a missing target is named by type and id', async (t) => {
  const caller = app.newTenant();
  const userId = randomUUID();
  const response = await create(caller, withTarget({ type: 'user', id: userId.toUpperCase(), channels: ['email'] }));
  t.deepEqual(response.body.errors, [{ path: '/stages/0/targets/0/id', message: `no user ${userId} in this tenant` }]);
});
