/**
 * A gRPC stand-in for a single EventStoreDB node, for tests only: it speaks the protocol of
 * @eventstore/db-client (its own generated service definitions and message classes) and keeps
 * everything in memory.
 *
 * Only the Streams service is served. The client asks `ServerFeatures.GetSupportedMethods` before
 * its first append; the stand-in does not register that service, so grpc-js answers UNIMPLEMENTED
 * and the client falls back to the plain client-streaming `Append` (no BatchAppend). A connection
 * string naming one host with `tls=false` makes the client connect directly, without gossip.
 */
import { Server, ServerCredentials, status, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { StreamsService } from './protocol.js';
import { InMemoryEventLog } from './storage.js';
import { appendHandler } from './append-handler.js';
import { failCall, readHandler, type SubscriptionRegistry } from './read-handler.js';

export interface EventStoreStandInOptions {
  /** Clock used to stamp events and to expire them by `$maxAge`. */
  now?: () => number;
}

export interface EventStoreStandIn {
  /** `esdb://127.0.0.1:<port>?tls=false` */
  connectionString: string;
  /**
   * Ends every open subscription from the server side, as a flaky network or a restarting node
   * would: with an UNAVAILABLE status, or `cleanly` with an OK status the client did not ask for.
   */
  dropSubscriptions(options?: { cleanly?: boolean }): void;
  /** Number of subscriptions currently open on the server. */
  openSubscriptions(): number;
  /** The stream-name prefixes each open subscription asked the server to filter on (none: no such filter). */
  subscriptionStreamPrefixes(): string[][];
  /**
   * Replaces a stored event's data in place, as someone with access to a server's files could
   * (tests of tamper evidence); false when there is no such event.
   */
  rewriteEventData(stream: string, revision: bigint, data: unknown): boolean;
  stop(): Promise<void>;
}

export async function startEventStoreStandIn(options: EventStoreStandInOptions = {}): Promise<EventStoreStandIn> {
  const log = new InMemoryEventLog(options.now);
  const subscriptions: SubscriptionRegistry = new Set();
  const server = new Server();
  // Delete, Tombstone and BatchAppend are left out: grpc-js answers UNIMPLEMENTED for them.
  const streams: UntypedServiceImplementation = { read: readHandler(log, subscriptions), append: appendHandler(log) };
  server.addService(StreamsService, streams);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, boundPort) =>
      error ? reject(error) : resolve(boundPort),
    ),
  );

  return {
    connectionString: `esdb://127.0.0.1:${port}?tls=false`,
    dropSubscriptions({ cleanly = false } = {}) {
      for (const call of [...subscriptions]) {
        subscriptions.delete(call);
        if (cleanly) call.end();
        else failCall(call, status.UNAVAILABLE, 'subscription dropped by the stand-in');
      }
    },
    openSubscriptions: () => subscriptions.size,
    subscriptionStreamPrefixes: () =>
      [...subscriptions].map(
        (call) => call.request.getOptions()?.getFilter()?.getStreamIdentifier()?.getPrefixList() ?? [],
      ),
    rewriteEventData(stream, revision, data) {
      for (let index = 0; index < log.length; index++) {
        const event = log.eventAt(index)!;
        if (event.stream !== stream || event.revision !== revision) continue;
        event.data = new TextEncoder().encode(JSON.stringify(data));
        return true;
      }
      return false;
    },
    async stop() {
      // Cancels open calls (subscriptions) instead of waiting for clients to end them.
      server.forceShutdown();
    },
  };
}
