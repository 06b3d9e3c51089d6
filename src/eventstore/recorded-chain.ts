import type { ChainedEvent } from './event-chain.mjs';
import type { RecordedEvent } from './port.js';

/** A recorded event as the chain checker (event-chain.mjs) reads it. */
export const chainedEventOf = (event: RecordedEvent): ChainedEvent => ({
  stream: event.streamName,
  revision: event.revision,
  type: event.type,
  data: event.data,
  metadata: event.metadata,
  hash: event.chain?.hash,
  previousHash: event.chain?.previousHash,
});
