import test from 'ava';
import { lazySyncStore } from '../src/syncstore/lazy.js';
import type { SyncStore } from '../src/syncstore/store.js';

/** An open() the test settles by hand. */
function controlledOpen() {
  const attempts: { resolve: (store: SyncStore) => void; reject: (error: Error) => void }[] = [];
  const open = () => new Promise<SyncStore>((resolve, reject) => attempts.push({ resolve, reject }));
  return { open, attempts };
}

const fakeStore = { ping: async () => undefined, close: async () => undefined } as unknown as SyncStore;

test('not opened until used; opening while the open runs; open once it resolved', async (t) => {
  const { open, attempts } = controlledOpen();
  const store = lazySyncStore('embedded', open);
  t.is(store.state(), 'not_opened');
  const ping = store.ping();
  t.is(store.state(), 'opening');
  attempts[0]!.resolve(fakeStore);
  await ping;
  t.is(store.state(), 'open');
  t.is(attempts.length, 1);
});

test('a failed open is reported with its reason, and the next use tries again', async (t) => {
  const { open, attempts } = controlledOpen();
  const store = lazySyncStore('embedded', open);
  const first = store.ping();
  attempts[0]!.reject(new Error('data directory is corrupt'));
  await t.throwsAsync(first, { message: 'data directory is corrupt' });
  t.is(store.state(), 'failed');
  t.is((store.lastFailure() as Error).message, 'data directory is corrupt');
  const second = store.ping();
  t.is(store.state(), 'opening');
  attempts[1]!.resolve(fakeStore);
  await second;
  t.is(store.state(), 'open');
  t.is(store.lastFailure(), undefined);
});

test('closing while the open is still under way waits only the bound, then closes the store once it opens', async (t) => {
  const { open, attempts } = controlledOpen();
  const store = lazySyncStore('embedded', open, 20);
  void store.ping().catch(() => undefined);
  await store.close();
  t.is(attempts.length, 1, 'close returned although the open never finished');
  let closed = false;
  attempts[0]!.resolve({
    ...fakeStore,
    close: async () => {
      closed = true;
    },
  } as SyncStore);
  await new Promise((resolve) => setImmediate(resolve));
  t.true(closed);
  await t.throwsAsync(store.ping(), { message: /closed/ });
});
