/**
 * `npm run verify`: walks the whole event log in order and checks every stream's chain
 * (src/eventstore/event-chain.mjs): each event's hash against its fields, each link against the
 * event before it. Prints the first break (stream, revision, what the chain recorded and what the
 * log holds now) and how many there are; exit 0 when the log is intact, 1 on a break (or when the
 * log cannot be read), 2 on a usage error. Where the log records its chain start, an event after
 * it without a hash is a break, and so is a stream whose oldest events are gone although no
 * retention applies to it.
 *
 * It only reads, so it runs beside a serving platform (embedded or EventStoreDB, as configured);
 * what is appended after it passed the head it started from is checked next time. It reads the log
 * below the secret box: hashes cover secret fields as sealed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Refusal, exitOnCliError } from './cli-refusal.js';
import { loadConfig, type Config } from './config.js';
import { walkLogChain } from './eventstore/chain-walk.js';
import { createEventStoreDbStore } from './eventstore/eventstoredb.js';
import type { EventStore } from './eventstore/port.js';
import { describeChainBreak } from './eventstore/recorded-chain.js';
import { openSqliteLogReader } from './eventstore/sqlite-log-reader.js';

/** Breaks listed after the first. */
const LISTED = 20;

function openLog(config: Config): EventStore {
  if (config.eventStoreUrl) return createEventStoreDbStore(config.eventStoreUrl);
  const filename = join(config.dataDir, 'events.db');
  if (!existsSync(filename))
    throw new Refusal(`no event store at ${filename}: nothing to verify (is DATA_DIR right?)`, 1);
  return openSqliteLogReader({ filename, onCommit: () => () => {} });
}

async function main(): Promise<number> {
  if (process.argv.length > 2) throw new Refusal(`unexpected argument ${process.argv[2]}; usage: npm run verify`, 2);
  const log = openLog(loadConfig());
  let walk: Awaited<ReturnType<typeof walkLogChain>>;
  try {
    walk = await walkLogChain(log);
  } finally {
    await log.close();
  }
  const { breaks, chainStart, totals } = walk;
  const { events, streams, unhashed } = totals;
  const legacy =
    chainStart === null
      ? '; no record of where the chain started (a log written before it): unhashed events and missing stream starts not judged'
      : '';
  const checked = `${events} events in ${streams} streams checked${unhashed > 0 ? ` (${unhashed} written before the chain existed, not hashed)` : ''}${legacy}`;
  if (breaks.length === 0) {
    console.log(`event log intact: ${checked}`);
    return 0;
  }
  const [first, ...more] = breaks;
  console.error(`event log chain broken at position ${first!.position}, ${describeChainBreak(first!)}`);
  for (const next of more.slice(0, LISTED))
    console.error(`  also at position ${next.position}, ${describeChainBreak(next)}`);
  if (more.length > LISTED) console.error(`  … and ${more.length - LISTED} more`);
  console.error(`${breaks.length} break${breaks.length === 1 ? '' : 's'}; ${checked}`);
  return 1;
}

main().then((code) => process.exit(code), exitOnCliError);
