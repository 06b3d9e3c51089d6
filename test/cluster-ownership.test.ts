import test from 'ava';
import { ownerOf, soloMembership } from '../src/cluster/membership.js';

const keys = Array.from({ length: 3000 }, (_, i) => `rule-${i}`);

test('every key has exactly one owner, the same whatever order the members are listed in', (t) => {
  const members = ['a', 'b', 'c'];
  for (const key of keys.slice(0, 200)) {
    const owner = ownerOf(key, members);
    t.true(members.includes(owner!));
    t.is(ownerOf(key, ['c', 'a', 'b']), owner);
  }
  t.is(ownerOf('x', []), null);
});

test('three members share the keys roughly evenly', (t) => {
  const counts = new Map<string, number>();
  for (const key of keys) {
    const owner = ownerOf(key, ['a', 'b', 'c'])!;
    counts.set(owner, (counts.get(owner) ?? 0) + 1);
  }
  for (const member of ['a', 'b', 'c']) {
    const share = (counts.get(member) ?? 0) / keys.length;
    t.true(share > 0.27 && share < 0.4, `${member} owns ${share}`);
  }
});

test('when a member leaves only its keys move, and they spread over the others', (t) => {
  const before = new Map(keys.map((key) => [key, ownerOf(key, ['a', 'b', 'c'])]));
  const moved = { b: 0, c: 0 };
  for (const key of keys) {
    const after = ownerOf(key, ['b', 'c'])!;
    if (before.get(key) !== 'a') t.is(after, before.get(key)!, `${key} moved though its owner stayed`);
    else moved[after as 'b' | 'c']++;
  }
  t.true(moved.b > 0 && moved.c > 0);
});

test('a member that joins takes keys only for itself', (t) => {
  for (const key of keys) {
    const before = ownerOf(key, ['a', 'b']);
    const after = ownerOf(key, ['a', 'b', 'c']);
    t.true(after === before || after === 'c');
  }
});

test('alone, an instance owns everything', async (t) => {
  const solo = soloMembership('me');
  await solo.start();
  t.deepEqual(solo.members(), ['me']);
  t.true(keys.every((key) => solo.owns(key)));
  await solo.stop();
});
