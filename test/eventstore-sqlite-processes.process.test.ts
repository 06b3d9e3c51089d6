import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteEventStore } from '../src/eventstore/sqlite.js';
import type { RecordedEvent } from '../src/eventstore/port.js';
import { chainBreaks } from './support/eventstore-chain-contract.js';
import { nodeEntry } from './support/node-entry.js';

const CHILDREN = 3;
const ROUNDS = 40;
const BURST = 4;
const EVENTS_PER_APPEND = 2;

/** Starts a concurrent-appender child; resolves once it has opened the store. */
function startAppender(filename: string, label: string) {
  const child = spawn(
    process.execPath,
    [...nodeEntry('test/support/concurrent-appender.ts'), filename, label, String(ROUNDS), String(BURST)],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.startsWith('ready\n')) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`appender ${label} exited with ${code} before it was ready: ${stderr}`)),
    );
  });
  const result = new Promise<{ ok: number; failures: string[]; acknowledged: string[][] }>((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`appender ${label} exited with ${code}: ${stderr}`));
      resolve(JSON.parse(stdout.slice('ready\n'.length)));
    });
  });
  result.catch(() => {}); // awaited by the test; a child that never got ready fails `ready` first
  return { go: () => child.stdin.end('go\n'), ready, result };
}

async function readEverything(filename: string): Promise<RecordedEvent[]> {
  const store = openSqliteEventStore({ filename });
  const all: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readAll({ after: all.at(-1)?.position, maxCount: 500 });
    if (page.length === 0) break;
    all.push(...page);
  }
  await store.close();
  return all;
}

test('several processes append to one file at once: none fails, positions are gap-free, in commit order, and revisions contiguous', async (t) => {
  t.timeout(60_000);
  const filename = join(mkdtempSync(join(tmpdir(), 'es-procs-')), 'events.db');
  // Create the file (and its schema) before the children race to do it.
  await openSqliteEventStore({ filename }).close();

  const appenders = Array.from({ length: CHILDREN }, (_, i) => startAppender(filename, `p${i}`));
  await Promise.all(appenders.map((a) => a.ready));
  for (const appender of appenders) appender.go();
  const results = await Promise.all(appenders.map((a) => a.result));

  const failures = results.flatMap((r) => r.failures);
  t.is(failures.length, 0, `appends failed, e.g. ${failures.slice(0, 3).join('; ')}`);
  t.is(
    results.reduce((sum, r) => sum + r.ok, 0),
    CHILDREN * ROUNDS * BURST,
  );

  const all = await readEverything(filename);
  t.is(all.length, CHILDREN * ROUNDS * BURST * EVENTS_PER_APPEND);
  t.deepEqual(
    all.map((e) => e.position),
    all.map((_, i) => BigInt(i + 1)),
    'positions 1..n, strictly increasing, no gap',
  );

  const revisions = new Map<string, bigint[]>();
  for (const event of all)
    revisions.set(event.streamName, [...(revisions.get(event.streamName) ?? []), event.revision]);
  for (const [stream, seen] of revisions) {
    t.deepEqual(
      seen,
      seen.map((_, i) => BigInt(i)),
      `${stream}: revisions 0..n in log order`,
    );
  }
  t.is(
    revisions.get('shared-1')?.length,
    CHILDREN * ROUNDS * EVENTS_PER_APPEND,
    'the stream every process appends to has every event',
  );
  // Each stream's hash chain holds across processes: every append chained to the head it committed after.
  for (const stream of revisions.keys())
    t.deepEqual(chainBreaks(all.filter((e) => e.streamName === stream)), [], `${stream}: chain intact`);

  // Commit order: a process starts a round only after its previous round committed, so every
  // position it was acknowledged in a round lies after every position of its earlier rounds.
  const byPosition = new Map(all.map((event) => [event.position, event]));
  for (const [child, { acknowledged }] of results.entries()) {
    t.is(acknowledged.length, ROUNDS);
    for (let round = 1; round < ROUNDS; round++) {
      const before = acknowledged[round - 1]!.map(BigInt);
      const after = acknowledged[round]!.map(BigInt);
      t.true(
        after.every((p) => before.every((q) => p > q)),
        `p${child} round ${round}: ${after} after ${before}`,
      );
    }
    // What the committer was told is what the log holds: its own second event at that position.
    for (const [round, positions] of acknowledged.entries()) {
      for (const [i, position] of positions.entries()) {
        t.like(
          byPosition.get(BigInt(position))?.data,
          { label: `p${child}`, round, i, second: true },
          `p${child} round ${round} append ${i}`,
        );
      }
    }
  }
});
