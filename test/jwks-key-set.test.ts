import test from 'ava';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createJwksKeySet } from '../src/auth/jwks-key-set.js';

const publicKey = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;

test('a failing refresh keeps the last good key set; an unknown kid is then "not checked yet", never "unknown"', async (t) => {
  let now = 0;
  const a = publicKey();
  let answer: () => Promise<Map<string, KeyObject>> = async () => new Map([['a', a]]);
  let fetches = 0;
  const keys = createJwksKeySet({ fetchKeys: () => (fetches++, answer()), now: () => now });
  t.deepEqual(await keys.keyFor('a'), { key: a });
  answer = async () => {
    throw new Error('provider down');
  };
  now += 11 * 60 * 1000; // the set is old: it is re-read on use, and that fails
  t.deepEqual(await keys.keyFor('a'), { key: a }, 'the last good set still verifies');
  t.like(await keys.keyFor('b'), { notCheckedYet: true });
  t.is(fetches, 2, 'one fetch per interval, whatever is asked');
});

test('concurrent lookups of unknown kids share one fetch and are told the kid is unknown', async (t) => {
  let fetches = 0;
  const keys = createJwksKeySet({ fetchKeys: async () => (fetches++, new Map([['a', publicKey()]])), now: () => 0 });
  const answers = await Promise.all(['x', 'y', 'z'].map((kid) => keys.keyFor(kid)));
  t.is(fetches, 1);
  t.deepEqual(answers, [{ unknown: true }, { unknown: true }, { unknown: true }]);
});

test('a key the set holds answers at once while a due refresh hangs; the refresh still runs, in the background', async (t) => {
  let now = 0;
  const a = publicKey();
  const b = publicKey();
  let release: (keys: Map<string, KeyObject>) => void = () => undefined;
  let fetches = 0;
  let answer: () => Promise<Map<string, KeyObject>> = async () => new Map([['a', a]]);
  const keys = createJwksKeySet({ fetchKeys: () => (fetches++, answer()), now: () => now });
  t.deepEqual(await keys.keyFor('a'), { key: a });
  // Given the set is old and the provider hangs
  answer = () => new Promise((resolve) => (release = resolve));
  now += 11 * 60 * 1000;
  // Then a known key answers without waiting, twice, and one refresh was started
  t.deepEqual(await keys.keyFor('a'), { key: a });
  t.deepEqual(await keys.keyFor('a'), { key: a });
  t.is(fetches, 2);
  // And when the provider answers, the new set is the one used
  release(new Map([['b', b]]));
  t.deepEqual(await keys.keyFor('b'), { key: b });
});
