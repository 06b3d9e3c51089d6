/** The counted-slot primitive under the stream caps and the heavy-request caps. */
import test from 'ava';
import { createKeyedSlots } from '../src/http/keyed-slots.js';

const refusal = () => new Error('full');

test('a key takes up to its limit; one more is refused and takes nothing; other keys count apart', (t) => {
  const slots = createKeyedSlots(2, refusal);
  slots.take('a');
  slots.take('a');
  t.throws(() => slots.take('a'), { message: 'full' });
  t.is(slots.inUse('a'), 2, 'the refused take took no slot');
  t.notThrows(() => slots.take('b'));
  t.is(slots.inUse('b'), 1);
});

test('a slot is given back once, however often its release is called; a freed slot can be taken again', (t) => {
  const slots = createKeyedSlots(2, refusal);
  const first = slots.take('a');
  slots.take('a');
  first();
  first();
  t.is(slots.inUse('a'), 1, 'released once');
  t.notThrows(() => slots.take('a'));
  t.throws(() => slots.take('a'), { message: 'full' }, 'the second release gave nothing back');
});

test('a key whose slots are all given back counts zero', (t) => {
  const slots = createKeyedSlots(1, refusal);
  const release = slots.take('a');
  release();
  t.is(slots.inUse('a'), 0);
  t.notThrows(() => slots.take('a'));
});
