/**
 * A child process for the multi-process event log test: opens the SQLite event store on the file
 * given as argv[2], says "ready", waits for "go" on stdin (so every child starts writing at the
 * same moment), then appends `rounds` bursts of `burst` appends, each burst issued in one
 * event-loop turn (one group commit). It prints one JSON line: how many appends succeeded, the
 * messages of those that failed, and per round the positions its appends were acknowledged with
 * (as strings; the position of each append's last event). Streams: its own (`<label>-<n>`) and one
 * shared by every child.
 */
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { EventToAppend } from '../../src/eventstore/port.js';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.js';

// Not the contract's sampleEvent: that module imports ava, which refuses to load outside its CLI.
const event = (data: Record<string, unknown>): EventToAppend => ({
  type: 'Appended',
  data,
  metadata: {
    tenantId: randomUUID(),
    actor: 'test',
    correlationId: randomUUID(),
    causationId: randomUUID(),
    occurredAt: new Date().toISOString(),
  },
});

const [filename, label, roundsText, burstText] = process.argv.slice(2);
const rounds = Number(roundsText);
const burst = Number(burstText);
const store = openSqliteEventStore({ filename: filename! });

const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
await new Promise<void>((resolve) => lines.once('line', () => resolve()));

let ok = 0;
const failures: string[] = [];
const acknowledged: string[][] = [];
for (let round = 0; round < rounds; round++) {
  const appends = Array.from({ length: burst }, (_, i) => {
    const stream = i === 0 ? 'shared-1' : `${label}-${i}`;
    return store.append(stream, [event({ label, round, i }), event({ label, round, i, second: true })]);
  });
  const positions: string[] = [];
  for (const outcome of await Promise.allSettled(appends)) {
    if (outcome.status === 'fulfilled') {
      ok++;
      positions.push(String(outcome.value.position));
    } else failures.push(String((outcome.reason as Error).message));
  }
  acknowledged.push(positions);
}
await store.close();
lines.close();
process.stdout.write(`${JSON.stringify({ ok, failures, acknowledged })}\n`);
