import test from 'ava';
import type { PermissionLevels } from '../src/auth/effective-permissions.js';
import { iamChangeStamps, reportingIamCommits } from '../src/auth/iam-change-stamps.js';
import { iamPermissionResolver, type UserStanding } from '../src/auth/iam-permission-resolver.js';
import type { Principal } from '../src/access/principal.js';
import type { ReadStore } from '../src/readstore/port.js';

const principal = (tenantId: string, userId = 'u1', roles: string[] = []): Principal => ({
  subject: 's',
  tenantId,
  userId,
  envId: 'e',
  roles,
});

/** A lookup whose answers the test sets, counting how often the resolver asks. */
function fakeLookup(initial: { standing: UserStanding; levels: Partial<PermissionLevels> }) {
  let answer = initial;
  let calls = 0;
  let gate: Promise<void> | undefined;
  return {
    lookup: {
      async forPrincipal() {
        calls++;
        const current = answer;
        await gate;
        return {
          standing: current.standing,
          levels: { overrides: {}, groups: [], roles: [], tenantDefaults: {}, ...current.levels },
        };
      },
    },
    set: (next: typeof initial) => void (answer = next),
    hold: (until: Promise<void>) => void (gate = until),
    calls: () => calls,
  };
}

test('decisions are cached per principal until an IAM change in its tenant', async (t) => {
  const fake = fakeLookup({ standing: 'active', levels: { overrides: { 'iam:read': 'allow' } } });
  const stamps = iamChangeStamps();
  const resolver = iamPermissionResolver({ lookup: fake.lookup, stamps });
  t.true(await resolver.can(principal('t1'), 'iam:read'));
  t.false(await resolver.can(principal('t1'), 'iam:write'));
  t.is(fake.calls(), 1, 'one lookup answers every permission');

  fake.set({ standing: 'active', levels: {} });
  stamps.changed('t2');
  t.true(await resolver.can(principal('t1'), 'iam:read'), 'a change in another tenant keeps the entry');
  stamps.changed('t1');
  t.false(await resolver.can(principal('t1'), 'iam:read'), 'a change in its tenant is seen by the next request');
  t.is(fake.calls(), 2);
  stamps.changed();
  await resolver.can(principal('t1'), 'iam:read');
  t.is(fake.calls(), 3, 'a change everywhere (a rebuild) drops every entry');
  await resolver.can(principal('t1', 'u1', ['viewer']), 'iam:read');
  t.is(fake.calls(), 4, 'the roles claim is part of the key');
});

test('one principal object (what the authenticator hands every request with a token): remembered, and never stale', async (t) => {
  // A client without a user record (the dev client): nothing to look up beyond the first request.
  const fake = fakeLookup({
    standing: 'no_record',
    levels: { roles: [{ id: 'admin', permissions: { 'iam:read': 'allow' } }] },
  });
  const stamps = iamChangeStamps();
  const resolver = iamPermissionResolver({ lookup: fake.lookup, stamps });
  const client = Object.freeze(principal('t1', 'client-1', ['admin']));
  for (let request = 0; request < 5; request++) {
    t.is((await resolver.resolve(client)).standing, 'no_record');
    t.true(await resolver.can(client, 'iam:read'));
  }
  t.is(fake.calls(), 1, 'a non-user principal is remembered like a user');
  fake.set({ standing: 'no_record', levels: {} });
  stamps.changed('t1');
  t.false(await resolver.can(client, 'iam:read'), 'the same object sees an IAM change in its tenant at once');
  t.is(fake.calls(), 2);
  t.false(
    await resolver.can(principal('t1', 'client-1', ['admin']), 'iam:read'),
    'an equal principal object shares the entry',
  );
  t.is(fake.calls(), 2);
});

test('a computation that overlaps a commit is not reused afterwards', async (t) => {
  const fake = fakeLookup({ standing: 'active', levels: { overrides: { 'iam:read': 'allow' } } });
  const stamps = iamChangeStamps();
  const resolver = iamPermissionResolver({ lookup: fake.lookup, stamps });
  let release!: () => void;
  fake.hold(new Promise<void>((resolve) => (release = resolve)));
  const during = resolver.can(principal('t1'), 'iam:read');
  fake.set({ standing: 'active', levels: {} });
  stamps.changed('t1'); // the commit lands while the old data is being used
  release();
  t.true(await during);
  fake.hold(Promise.resolve());
  t.false(
    await resolver.can(principal('t1'), 'iam:read'),
    'recomputed: the entry carried the stamp from before the commit',
  );
});

for (const standing of ['deactivated', 'removed'] as const) {
  test(`a ${standing} user holds no permission, whatever its levels say`, async (t) => {
    const fake = fakeLookup({ standing, levels: { overrides: { 'iam:read': 'allow' } } });
    const resolver = iamPermissionResolver({ lookup: fake.lookup, stamps: iamChangeStamps() });
    t.false(await resolver.can(principal('t1'), 'iam:read'));
    t.is((await resolver.resolve(principal('t1'))).standing, standing);
  });
}

test('the cache is bounded: the oldest entry goes first', async (t) => {
  const fake = fakeLookup({ standing: 'no_record', levels: {} });
  const resolver = iamPermissionResolver({ lookup: fake.lookup, stamps: iamChangeStamps(), maxEntries: 2 });
  for (const user of ['a', 'b', 'c']) await resolver.resolve(principal('t1', user));
  await resolver.resolve(principal('t1', 'c'));
  t.is(fake.calls(), 3);
  await resolver.resolve(principal('t1', 'a'));
  t.is(fake.calls(), 4, 'a was evicted');
});

test('stamps move after an IAM projection commits, for the tenants of its events; other projections and failed batches move nothing', async (t) => {
  const stamps = iamChangeStamps();
  let commit!: () => void;
  let fail = false;
  const store = {
    async applyBatch() {
      await new Promise<void>((resolve) => (commit = resolve));
      if (fail) throw new Error('rolled back');
    },
    async replaceCollection() {},
  } as unknown as ReadStore;
  const reporting = reportingIamCommits(store, new Set(['users']), stamps);
  const event = (tenantId: string) => ({ position: 1n, metadata: { tenantId } });
  const before = { t1: stamps.stampOf('t1'), t2: stamps.stampOf('t2') };

  const applying = reporting.applyBatch({ projection: 'users', version: 1 }, [event('t1')], async () => {});
  await Promise.resolve();
  t.is(stamps.stampOf('t1'), before.t1, 'nothing moves before the commit');
  commit();
  await applying;
  t.not(stamps.stampOf('t1'), before.t1);
  t.is(stamps.stampOf('t2'), before.t2);

  const other = reporting.applyBatch({ projection: 'channels', version: 1 }, [event('t2')], async () => {});
  commit();
  await other;
  t.is(stamps.stampOf('t2'), before.t2, 'not an IAM projection');

  fail = true;
  const failing = reporting.applyBatch({ projection: 'users', version: 1 }, [event('t2')], async () => {});
  commit();
  await t.throwsAsync(failing);
  t.is(stamps.stampOf('t2'), before.t2, 'a rolled-back batch changed nothing');

  await reporting.replaceCollection('users__rebuild', 'users');
  t.not(stamps.stampOf('t2'), before.t2, 'a rebuild swap moves every tenant');
});
