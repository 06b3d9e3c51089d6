/** Issue 39 item 4: who may open one more live stream (src/http/stream-slots.ts). */
import test from 'ava';
import { decideStreamSlot, createStreamSlots, type SlotDecision } from '../src/http/stream-slots.js';
import { HttpProblem } from '../src/http/problem.js';

const caps = { perPerson: 5, perTenant: 2000 };
const cases: [string, { person: number; tenant: number }, SlotDecision][] = [
  ['nobody has a stream', { person: 0, tenant: 0 }, { take: true }],
  ['a person with four tabs opens a fifth', { person: 4, tenant: 400 }, { take: true }],
  ['a person with five tabs opens a sixth', { person: 5, tenant: 400 }, { take: false, cap: 'per_user' }],
  ['a new person in a tenant one short of its cap', { person: 0, tenant: 1999 }, { take: true }],
  ['a new person in a full tenant', { person: 0, tenant: 2000 }, { take: false, cap: 'per_tenant' }],
  [
    'a person at their cap in a full tenant hears about their own tabs',
    { person: 5, tenant: 2000 },
    { take: false, cap: 'per_user' },
  ],
  [
    'counts over a cap lowered by a restart with new settings',
    { person: 9, tenant: 3000 },
    { take: false, cap: 'per_user' },
  ],
];
for (const [name, open, decision] of cases) {
  test(`slot decision: ${name}`, (t) => {
    t.deepEqual(decideStreamSlot(open, caps), decision);
  });
}

const slots = () =>
  createStreamSlots({
    caps: { perPerson: 2, perTenant: 3 },
    streamName: 'incident',
    variables: { perPerson: 'INCIDENT_STREAMS_PER_USER', perTenant: 'INCIDENT_STREAMS_PER_TENANT' },
    retryAfterSeconds: 5,
  });

const refusal = (take: () => unknown) => {
  try {
    take();
  } catch (error) {
    if (error instanceof HttpProblem) return error;
  }
  throw new Error('not refused');
};

test('a refusal is a 429 with Retry-After naming the cap and its variable; it takes nothing', (t) => {
  const given = slots();
  given.take({ tenantId: 'a', userId: 'alice' });
  given.take({ tenantId: 'a', userId: 'alice' });
  const own = refusal(() => given.take({ tenantId: 'a', userId: 'alice' }));
  t.like(own, { status: 429, extensions: { cap: 'per_user', limit: 2 }, headers: { 'Retry-After': '5' } });
  t.regex(own.detail!, /at most 2 incident streams per person .*INCIDENT_STREAMS_PER_USER/);
  t.is(given.inUse('a', 'alice'), 2);
  given.take({ tenantId: 'a', userId: 'bob' });
  const full = refusal(() => given.take({ tenantId: 'a', userId: 'carol' }));
  t.like(full, { status: 429, extensions: { cap: 'per_tenant', limit: 3 } });
  t.regex(full.detail!, /INCIDENT_STREAMS_PER_TENANT/);
  t.is(given.inUse('a'), 3);
  t.notThrows(() => given.take({ tenantId: 'b', userId: 'alice' }), 'the same user id in another tenant counts apart');
});

test('a slot is given back once, to the person and the tenant, however often its release is called', (t) => {
  const given = slots();
  const first = given.take({ tenantId: 'a', userId: 'alice' });
  given.take({ tenantId: 'a', userId: 'alice' });
  first();
  first();
  t.is(given.inUse('a', 'alice'), 1);
  t.is(given.inUse('a'), 1);
  given.take({ tenantId: 'a', userId: 'alice' });
  t.throws(() => given.take({ tenantId: 'a', userId: 'alice' }), { instanceOf: HttpProblem });
});
