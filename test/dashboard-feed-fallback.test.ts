/**
 * Issue 39 item 4, the console's side: a live feed the server refuses (a cap of live streams) or
 * that keeps failing gives way to polling with a visible note, and tries the stream again later.
 * The rules (src/dashboard/web/api/feed-fallback.ts) as a table; then the feed (event-feed.ts)
 * driven through a scripted EventSource in virtual time.
 */
import test from 'ava';
import type { ApiClient, StreamRefusal } from '../src/dashboard/web/api/client.js';
import { openEventFeed, type FeedState } from '../src/dashboard/web/api/event-feed.js';
import {
  afterFailure,
  LIVE,
  pausedNote,
  POLL_EVERY_MS,
  REFUSED_RETRY_MS,
  type FallbackState,
  type FeedFailure,
} from '../src/dashboard/web/api/feed-fallback.js';
import { virtualClock } from './support/virtual-clock.js';

const CAP =
  'at most 5 incident streams per person are open at once (INCIDENT_STREAMS_PER_USER); close another console tab or window first';
const refused = (retryAfterSeconds?: number): FeedFailure => ({ refused: { detail: CAP, retryAfterSeconds } });
const failures = (count: number, state: FallbackState = LIVE) => {
  let step = { state, retryInMs: 0 };
  for (let i = 0; i < count; i += 1) step = afterFailure(step.state, {});
  return step;
};

const cases: [string, () => ReturnType<typeof afterFailure>, { retryInMs: number; paused: string | undefined }][] = [
  [
    'a first failure retries in 0.5 s, live updates not paused',
    () => failures(1),
    { retryInMs: 500, paused: undefined },
  ],
  [
    'a third failure in a row retries in 2 s, still not paused',
    () => failures(3),
    { retryInMs: 2000, paused: undefined },
  ],
  [
    'a fourth failure in a row pauses live updates',
    () => failures(4),
    { retryInMs: 4000, paused: 'the live feed could not connect (4 tries in a row)' },
  ],
  [
    'the back-off stops growing at 15 s',
    () => failures(9),
    { retryInMs: 15_000, paused: 'the live feed could not connect (4 tries in a row)' },
  ],
  [
    'a refusal pauses at once, and waits a minute whatever its Retry-After of 5 s',
    () => afterFailure(LIVE, refused(5)),
    { retryInMs: REFUSED_RETRY_MS, paused: `the server refused the live feed (${CAP})` },
  ],
  [
    'a refusal with a Retry-After over a minute waits that long',
    () => afterFailure(LIVE, refused(300)),
    { retryInMs: 300_000, paused: `the server refused the live feed (${CAP})` },
  ],
  [
    'a paused feed whose next try fails otherwise stays paused, saying why it paused',
    () => afterFailure(afterFailure(LIVE, refused()).state, {}),
    { retryInMs: 500, paused: `the server refused the live feed (${CAP})` },
  ],
];
for (const [name, step, expected] of cases) {
  test(`fallback: ${name}`, (t) => {
    const { state, retryInMs } = step();
    t.deepEqual({ retryInMs, paused: state.pausedBecause }, expected);
  });
}

test('the note says live updates are paused, why, and how often the view refreshes', (t) => {
  t.is(pausedNote('why'), 'Live updates are paused: why; refreshing every 15 s');
  t.is(POLL_EVERY_MS, 15_000);
});

/** A stand-in EventSource the test opens or fails. */
class ScriptedEventSource {
  static opened: ScriptedEventSource[] = [];
  onopen: (() => void) | undefined;
  onerror: (() => void) | undefined;
  closed = false;
  constructor(readonly url: string) {
    ScriptedEventSource.opened.push(this);
  }
  addEventListener() {}
  close() {
    this.closed = true;
  }
}

const settle = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

function scriptedFeed(t: { teardown(fn: () => void): void }, refusal: () => StreamRefusal | undefined) {
  const realEventSource = (globalThis as { EventSource?: unknown }).EventSource;
  (globalThis as { EventSource?: unknown }).EventSource = ScriptedEventSource;
  ScriptedEventSource.opened = [];
  const clock = virtualClock();
  const api: ApiClient = {
    get: async () => undefined as never,
    send: async () => ({ ticket: 't' }) as never,
    tagged: async () => ({ data: undefined as never, etag: null }),
    sawPosition: () => undefined,
    whyRefused: async () => refusal(),
  };
  const seen = { states: [] as [FeedState, string | undefined][], polls: 0, reconnects: 0 };
  const close = openEventFeed({
    api,
    path: '/api/v1/incidents/stream',
    events: ['IncidentTriggered'],
    onEvent: () => undefined,
    onState: (state, note) => seen.states.push([state, note]),
    onPoll: () => (seen.polls += 1),
    onReconnect: () => (seen.reconnects += 1),
    timers: clock.timers('console'),
  });
  t.teardown(() => {
    close();
    (globalThis as { EventSource?: unknown }).EventSource = realEventSource;
  });
  const latest = () => ScriptedEventSource.opened.at(-1)!;
  return { clock, seen, latest };
}

test.serial(
  'a refused stream pauses live updates with the note, polls every 15 s, tries the stream a minute later, and stops polling once it opens',
  async (t) => {
    let refusing = true;
    const { clock, seen, latest } = scriptedFeed(t, () =>
      refusing ? { detail: CAP, retryAfterSeconds: 5 } : undefined,
    );
    await settle();
    latest().onerror!();
    await settle();
    t.deepEqual(seen.states.at(-1), [
      'paused',
      `Live updates are paused: the server refused the live feed (${CAP}); refreshing every 15 s`,
    ]);
    t.is(seen.polls, 1, 'the view is read again as the pause begins');
    await clock.advance(45_000);
    t.is(seen.polls, 4, 'and every 15 s');
    t.is(ScriptedEventSource.opened.length, 1, 'the stream is not asked for again before a minute');

    refusing = false;
    await clock.advance(15_000);
    await settle();
    t.is(ScriptedEventSource.opened.length, 2, 'a minute on, the stream is tried again');
    latest().onopen!();
    t.deepEqual(seen.states.at(-1), ['live', undefined]);
    t.is(seen.reconnects, 1, 'live again: the view reads what it missed');
    const polls = seen.polls;
    await clock.advance(60_000);
    t.is(seen.polls, polls, 'no polling while live');
  },
);

test.serial(
  'a stream that keeps failing (not refused) reconnects quietly three times, then pauses and polls',
  async (t) => {
    const { clock, seen, latest } = scriptedFeed(t, () => undefined);
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      await settle();
      t.is(ScriptedEventSource.opened.length, attempt);
      latest().onerror!();
      await settle();
      t.is(seen.states.at(-1)![0], attempt < 4 ? 'reconnecting' : 'paused', `after failure ${attempt}`);
      await clock.advance(500 * 2 ** (attempt - 1));
    }
    t.regex(
      seen.states.at(-1)![1] ?? '',
      /^Live updates are paused: the live feed could not connect \(4 tries in a row\); refreshing every 15 s$/,
    );
    t.true(seen.polls >= 1);
    await settle();
    latest().onopen!();
    t.is(seen.states.at(-1)![0], 'live');
  },
);
