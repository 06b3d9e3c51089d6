/**
 * GET /incidents/stream: the tenant's incident events as server-sent events (event name = event
 * type, id = global position). A client that reconnects with Last-Event-ID first receives what it
 * missed from the log, then the live events, with nothing lost or repeated at the seam.
 *
 * What a stream costs: every stream listens to the one live subscription of the hub
 * (src/eventstore/live-event-hub.ts), never a log subscription of its own, and a live event is
 * encoded once for all the streams it goes to. A person may hold INCIDENT_STREAMS_PER_USER
 * streams, a tenant INCIDENT_STREAMS_PER_TENANT (src/http/stream-slots.ts); one more is a 429.
 */
import Router from '@koa/router';
import type { EventStore, RecordedEvent } from '../src/eventstore/port.js';
import type { LiveEventHub } from '../src/eventstore/live-event-hub.js';
import { requires } from '../src/http/guard.js';
import { badRequest, HttpProblem } from '../src/http/problem.js';
import { queryParameters } from '../src/http/query-parameters.js';
import { encodeSseFrame, openSse, type SseChannel } from '../src/http/sse.js';
import { endStreamWhenRightsEnd } from '../src/http/stream-rights.js';
import type { AppState } from '../src/http/state.js';
import { createStreamSlots, type StreamCaps } from '../src/http/stream-slots.js';

const CATCH_UP_BATCH = 1000;

/** Under /api/v1; a browser's EventSource authenticates with a stream ticket (src/http/stream-tickets.ts). */
export const INCIDENT_STREAM_PATH = '/incidents/stream';

/**
 * An id past the log's head was never sent by this log (another deployment's, or a log that was
 * reset): following from it would silently skip every event until the log got there.
 */
async function refuseBeyondHead(eventStore: EventStore, lastEventId: bigint) {
  const head = await eventStore.headPosition();
  if (lastEventId <= head) return;
  throw new HttpProblem(
    400,
    'Bad Request',
    `Last-Event-ID ${lastEventId} is beyond the head of the log (${head}); reconnect without it`,
    [{ path: '/last_event_id', message: 'beyond the head of the log' }],
    { head_position: String(head) },
  );
}

export function incidentStreamRoutes(deps: {
  eventStore: EventStore;
  hub: LiveEventHub;
  heartbeatMs: number;
  caps: StreamCaps;
}) {
  const router = new Router<AppState>();
  const slots = createStreamSlots({
    caps: deps.caps,
    streamName: 'incident',
    variables: { perPerson: 'INCIDENT_STREAMS_PER_USER', perTenant: 'INCIDENT_STREAMS_PER_TENANT' },
    retryAfterSeconds: 5,
  });
  // The hub hands every stream the same event object: its frame is encoded by the first stream
  // that sends it and shared by the rest (a tenant's 2,000 streams, one JSON.stringify).
  const frames = new WeakMap<RecordedEvent, string>();
  const frameOf = (event: RecordedEvent) => {
    let frame = frames.get(event);
    if (frame === undefined) {
      frame = encodeSseFrame({
        id: String(event.position),
        event: event.type,
        data: {
          type: event.type,
          incident_id: event.data.incidentId,
          revision: String(event.revision),
          occurred_at: event.metadata.occurredAt,
          actor: event.metadata.actor,
          data: event.data,
        },
      });
      frames.set(event, frame);
    }
    return frame;
  };
  router.get(
    INCIDENT_STREAM_PATH,
    requires('incidents:read'),
    queryParameters(['last_event_id', 'ticket']),
    async (ctx) => {
      const rawLastId = ctx.get('Last-Event-ID') || (ctx.query.last_event_id as string | undefined) || '';
      if (rawLastId && !/^\d+$/.test(rawLastId)) throw badRequest('Last-Event-ID must be an id this stream sent');
      if (rawLastId) await refuseBeyondHead(deps.eventStore, BigInt(rawLastId));
      const tenantId = ctx.state.principal.tenantId;
      const belongs = (event: RecordedEvent) =>
        event.streamName.startsWith('incident-') && event.metadata.tenantId === tenantId;

      let lastSent = rawLastId ? BigInt(rawLastId) : -1n;
      let catchingUp = true;
      const held: RecordedEvent[] = [];
      // Listen first: if the log cannot be followed the client gets a 503, not an empty stream.
      let sse: SseChannel | undefined;
      let endedEarly = false;
      const release = slots.take(ctx.state.principal);
      const listener = await deps.hub
        .listen(
          (event) => {
            if (!belongs(event)) return;
            if (catchingUp || !sse) held.push(event);
            else send(event);
          },
          () => (sse ? sse.close() : (endedEarly = true)),
        )
        .catch((error: unknown) => {
          release();
          throw error;
        });
      sse = openSse(ctx, { heartbeatMs: deps.heartbeatMs });
      sse.onClose(() => {
        listener.stop();
        release();
      });
      endStreamWhenRightsEnd(ctx, sse, 'incidents:read');
      if (endedEarly) sse.close();
      const send = (event: RecordedEvent) => {
        if (event.position <= lastSent) return;
        lastSent = event.position;
        sse!.sendFrame(frameOf(event));
      };

      if (rawLastId) {
        // Replay (Last-Event-ID, hub position] from the log; the hub delivers everything after it.
        let after = BigInt(rawLastId);
        while (!sse.closed && after < listener.from) {
          const batch = await deps.eventStore.readAll({ after, maxCount: CATCH_UP_BATCH });
          if (batch.length === 0) break;
          for (const event of batch) if (event.position <= listener.from && belongs(event)) send(event);
          after = batch.at(-1)!.position;
        }
      }
      catchingUp = false;
      for (const event of held.splice(0)) send(event);
    },
  );
  return router;
}
