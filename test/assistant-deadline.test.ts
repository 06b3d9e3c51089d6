/** The deadline signal the loop and its tool calls run under (src/assistant/deadline.ts). */
import test from 'ava';
import { deadline } from '../src/assistant/deadline.js';

const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

test('it aborts when its time is up, even with nothing else holding it', async (t) => {
  const { signal } = deadline(20);
  (globalThis as { gc?: () => void }).gc?.();
  await aborted(signal);
  t.true(signal.aborted);
});

test('it aborts with its parent, and a parent already aborted aborts it at once', async (t) => {
  const parent = new AbortController();
  const child = deadline(60_000, [parent.signal]);
  parent.abort();
  t.true(child.signal.aborted);
  child.dispose();
  const early = deadline(60_000, [AbortSignal.abort()]);
  t.true(early.signal.aborted);
  early.dispose(); // its 60 s timer would otherwise hold the test process open after the last test
});

test('disposed, it no longer aborts and leaves its parents alone', async (t) => {
  const parent = new AbortController();
  const child = deadline(10, [parent.signal]);
  child.dispose();
  parent.abort();
  t.false(child.signal.aborted);
  const later = deadline(15);
  await aborted(later.signal);
  t.false(child.signal.aborted, 'its timer was cleared');
});
