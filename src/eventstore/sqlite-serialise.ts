/**
 * Turning an append's events into the rows the SQLite log stores, before the append joins a group
 * commit. Whatever can be wrong with one append (an event whose data holds a BigInt or a circular
 * reference, a missing type) is found here and fails that append alone; inside the batch's
 * transaction it would roll back every append that happened to share the commit.
 */
import { randomUUID } from 'node:crypto';
import { canonicalJson } from './event-chain.mjs';
import { InvalidEventError, type EventToAppend } from './port.js';

/**
 * One event as stored: everything the INSERT binds except stream, revision, time and the chain.
 * Data and metadata are canonical JSON (event-chain.mjs), so the writer hashes the stored text as
 * it is, without parsing or sorting it again on the thread every commit waits for.
 */
export interface SerialisedEvent {
  id: string;
  type: string;
  data: string;
  metadata: string;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Throws InvalidEventError naming the stream and the event at fault. */
export function serialiseAppend(stream: string, events: readonly EventToAppend[]): SerialisedEvent[] {
  if (typeof stream !== 'string' || stream.length === 0)
    throw new InvalidEventError(String(stream), 'stream name must be a non-empty string');
  if (!Array.isArray(events) || events.length === 0)
    throw new InvalidEventError(stream, 'append needs at least one event');
  return events.map((event, index) => {
    const fail = (reason: string): never => {
      const which =
        typeof event?.type === 'string' && event.type !== '' ? `event ${index} (${event.type})` : `event ${index}`;
      throw new InvalidEventError(stream, `${which}: ${reason}`);
    };
    if (!isPlainObject(event)) fail('must be an object');
    if (typeof event.type !== 'string' || event.type === '') fail('type must be a non-empty string');
    if (event.id !== undefined && (typeof event.id !== 'string' || event.id === '')) fail('id must be a string');
    if (!isPlainObject(event.data)) fail('data must be an object');
    if (!isPlainObject(event.metadata)) fail('metadata must be an object');
    return {
      id: event.id ?? randomUUID(),
      type: event.type,
      data: toJson(event.data, 'data', fail),
      metadata: toJson(event.metadata, 'metadata', fail),
    };
  });
}

function toJson(value: Record<string, unknown>, field: string, fail: (reason: string) => never): string {
  try {
    return canonicalJson(value);
  } catch (error) {
    // JSON.stringify's own words ("Do not know how to serialize a BigInt", "Converting circular
    // structure to JSON") say what is wrong; positions and revisions must be strings in JSON.
    return fail(`${field} cannot be serialised to JSON: ${(error as Error).message}`);
  }
}
