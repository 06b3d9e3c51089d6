/**
 * Where the chain began on EventStoreDB, and which streams have retention: what a verifier needs
 * beside the events (event-chain.mjs). The chain start is the `chainStartPosition` of the metadata
 * stream of `ww-log-chain` (a `$$` stream: never among the events our callers read), written once
 * (expected revision: no stream) before this adapter's first append in a process: the position
 * after the log's head then, so every event after it must carry a hash. Two instances racing to
 * write it: one wins and the other keeps the winner's. A server whose log predates the record gets
 * it at its first append; the events before it are judged as before (legacy).
 *
 * Retention is the stream's `$maxCount` / `$maxAge` (setStreamRetention); a `$tb` alone (set by
 * hand, or by a soft delete, which this platform never does) is not retention.
 */
import {
  BACKWARDS,
  END,
  NO_STREAM,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
  type EventStoreDBClient,
} from '@eventstore/db-client';
import { collectRead } from './eventstoredb-mapping.js';

const CHAIN_START_METASTREAM = '$$ww-log-chain';

export function chainStartRecord(
  client: EventStoreDBClient,
  readTimeoutMs: number,
  headPosition: () => Promise<bigint>,
) {
  const newestMetadata = async (metastream: string): Promise<Record<string, unknown>> => {
    const [latest] = await collectRead(
      client.readStream(metastream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 }),
      readTimeoutMs,
    ).catch((error: unknown) => (error instanceof StreamNotFoundError ? [] : Promise.reject(error)));
    const data = latest?.event?.isJson ? latest.event.data : undefined;
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  };

  const read = async (): Promise<bigint | null> => {
    const value = (await newestMetadata(CHAIN_START_METASTREAM)).chainStartPosition;
    return typeof value === 'string' && /^[0-9]+$/.test(value) ? BigInt(value) : null;
  };

  let recorded: Promise<void> | undefined;
  const write = async () => {
    if ((await read()) !== null) return;
    const start = (await headPosition()) + 1n;
    try {
      await client.appendToStream(
        CHAIN_START_METASTREAM,
        jsonEvent({ type: '$metadata', data: { chainStartPosition: String(start) } }),
        { expectedRevision: NO_STREAM },
      );
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
  };

  return {
    chainStart: read,
    /** Before the first append: records the chain start if the log has none (once per process, again after a failure). */
    ensureRecorded(): Promise<void> {
      recorded ??= write().catch((error: unknown) => {
        recorded = undefined;
        throw error;
      });
      return recorded;
    },
    async hasRetention(stream: string): Promise<boolean> {
      const metadata = await newestMetadata(`$$${stream}`);
      return typeof metadata.$maxCount === 'number' || typeof metadata.$maxAge === 'number';
    },
  };
}
