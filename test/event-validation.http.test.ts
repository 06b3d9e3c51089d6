import test from 'ava';
import { sampleEvent } from './support/eventstore-contract.js';
import { startTestApp } from './support/test-app.js';

test('the platform appends only events its catalogue knows, with valid data', async (t) => {
  const app = await startTestApp();
  try {
    const store = app.platform.eventStore;
    await t.throwsAsync(store.append('channel-x', [sampleEvent('NoSuchEvent', {})]), {
      message: /unknown event type NoSuchEvent/,
    });
    await t.throwsAsync(
      store.append('channel-x', [sampleEvent('ChannelCreated', { channelId: 'not-a-uuid', name: 1 })]),
    );
    t.deepEqual(await store.readStream('channel-x'), [], 'nothing was written');
    const id = '6f1d7c2e-8b3a-4c5d-9e0f-1a2b3c4d5e6f';
    await store.append(`channel-${id}`, [
      sampleEvent('ChannelCreated', {
        channelId: id,
        name: 'ok',
        type: 'email',
        config: { recipients: ['a@b.co'], subject_template: 's' },
      }),
    ]);
    t.is((await store.readStream(`channel-${id}`)).length, 1);
  } finally {
    await app.close();
  }
});
