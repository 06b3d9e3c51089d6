/** The main thread's loggers share one buffered stdout: starting many platforms adds no hooks. */
import test from 'ava';
import { createLogger } from '../src/logger.js';

test('many loggers in one process share one stdout destination and one exit hook', (t) => {
  createLogger('silent');
  const exitHooks = process.listenerCount('exit');
  for (let i = 0; i < 20; i++) createLogger('info');
  t.is(process.listenerCount('exit'), exitHooks);
});
