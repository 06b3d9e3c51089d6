/**
 * Setting up a benchmark's world straight through the log: the metadata of an event a benchmark
 * writes, and appends of many single-event streams 500 at a time, waited for until the read models
 * have them (the projection runner at the last position).
 */
import type { EventStore, EventToAppend } from '../../src/eventstore/port.js';

export const benchMetadata = (tenantId: string, at: Date) => ({
  tenantId,
  actor: 'bench',
  correlationId: 'bench',
  causationId: 'bench',
  occurredAt: at.toISOString(),
});

export async function appendAndProject(
  eventStore: EventStore,
  runner: { waitFor(position: bigint, timeoutMs: number): Promise<unknown> },
  events: { stream: string; event: EventToAppend }[],
): Promise<void> {
  let last = 0n;
  for (let i = 0; i < events.length; i += 500) {
    const batch = await Promise.all(
      events.slice(i, i + 500).map(({ stream, event }) => eventStore.append(stream, [event])),
    );
    last = batch.at(-1)!.position;
  }
  await runner.waitFor(last, 600_000);
}
