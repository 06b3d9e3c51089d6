/**
 * A view that reads again because the live feed announced an event must see that event: the feed is
 * read from the log, answers from read models that may lag, so the console's client sends the
 * event's log position with its next reads (X-Min-Read-Position) and the server waits for it.
 * Without it, a page re-read on an acknowledgement's event could show the incident triggered, with
 * nothing later to correct it (seen on a loaded machine in dashboard-incident.browser).
 */
import test from 'ava';
import { apiClient, type ApiClient } from '../src/dashboard/web/api/client.js';
import { openEventFeed } from '../src/dashboard/web/api/event-feed.js';

/** Records the X-Min-Read-Position of every GET; answers `{ success, data: {} }`. */
function recordingFetch() {
  const sent: (string | null)[] = [];
  const fetchStub = async (_path: string, init: RequestInit) => {
    sent.push(new Headers(init.headers).get('X-Min-Read-Position'));
    return new Response(JSON.stringify({ success: true, data: { ticket: 't' } }), {
      headers: { 'Content-Type': 'application/json' },
    });
  };
  return { sent, fetchStub };
}

test.serial('reads after a feed event wait for its position, which only ever moves forward', async (t) => {
  const { sent, fetchStub } = recordingFetch();
  const realFetch = globalThis.fetch;
  globalThis.fetch = fetchStub as typeof fetch;
  t.teardown(() => {
    globalThis.fetch = realFetch;
  });
  const api = apiClient('token', () => undefined);
  await api.get('/api/v1/incidents/x');
  api.sawPosition('42');
  await api.get('/api/v1/incidents/x');
  api.sawPosition('17');
  api.sawPosition('not-a-position');
  await api.get('/api/v1/incidents/x');
  t.deepEqual(sent, [null, '42', '42']);
});

/** A stand-in EventSource the test drives: it opens, then delivers the events the test sends it. */
class ScriptedEventSource {
  static last: ScriptedEventSource | undefined;
  onopen: (() => void) | undefined;
  onerror: (() => void) | undefined;
  readonly listeners = new Map<string, (event: { data: string; lastEventId: string }) => void>();
  constructor(readonly url: string) {
    ScriptedEventSource.last = this;
  }
  addEventListener(name: string, listener: (event: { data: string; lastEventId: string }) => void) {
    this.listeners.set(name, listener);
  }
  close() {}
  deliver(name: string, id: string) {
    this.listeners.get(name)?.({ data: JSON.stringify({ incident_id: 'i' }), lastEventId: id });
  }
}

for (const [idsArePositions, expected] of [
  [true, ['7']],
  [false, []],
] as const) {
  test.serial(
    `a feed whose ids ${idsArePositions ? 'are' : 'are not'} log positions tells the client so`,
    async (t) => {
      const realEventSource = (globalThis as { EventSource?: unknown }).EventSource;
      (globalThis as { EventSource?: unknown }).EventSource = ScriptedEventSource;
      t.teardown(() => {
        (globalThis as { EventSource?: unknown }).EventSource = realEventSource;
      });
      const seen: string[] = [];
      const api: ApiClient = {
        get: async () => undefined as never,
        send: async () => ({ ticket: 't' }) as never,
        tagged: async () => ({ data: undefined as never, etag: null }),
        sawPosition: (position) => seen.push(position),
        whyRefused: async () => undefined,
      };
      const events: string[] = [];
      const close = openEventFeed({
        api,
        path: '/api/v1/incidents/stream',
        events: ['IncidentAcknowledged'],
        onEvent: (name) => events.push(name),
        idsArePositions,
      });
      t.teardown(close);
      for (let i = 0; i < 100 && !ScriptedEventSource.last; i++) await new Promise((resolve) => setImmediate(resolve));
      ScriptedEventSource.last!.deliver('IncidentAcknowledged', '7');
      t.deepEqual(events, ['IncidentAcknowledged']);
      t.deepEqual(seen, expected);
      ScriptedEventSource.last = undefined;
    },
  );
}
