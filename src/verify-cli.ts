/**
 * `npm run verify`: walks the whole event log in order and checks every stream's chain
 * (src/eventstore/event-chain.mjs): each event's hash against its fields, each link against the
 * event before it. Prints the first break (stream, revision, what the chain recorded and what the
 * log holds now) and how many there are; exit 0 when the log is intact, 1 on a break (or when the
 * log cannot be read), 2 on a usage error.
 *
 * It only reads, so it runs beside a serving platform (embedded or EventStoreDB, as configured);
 * what is appended after it passed the head it started from is checked next time. It reads the log
 * below the secret box: hashes cover secret fields as sealed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Refusal, exitOnCliError } from './cli-refusal.js';
import { loadConfig, type Config } from './config.js';
import { chainChecker, type ChainBreak } from './eventstore/event-chain.mjs';
import { createEventStoreDbStore } from './eventstore/eventstoredb.js';
import type { EventStore } from './eventstore/port.js';
import { chainedEventOf } from './eventstore/recorded-chain.js';
import { openSqliteLogReader } from './eventstore/sqlite-log-reader.js';

/** Events read per page. */
const PAGE = 1000;
/** Breaks listed after the first. */
const LISTED = 20;

function openLog(config: Config): EventStore {
  if (config.eventStoreUrl) return createEventStoreDbStore(config.eventStoreUrl);
  const filename = join(config.dataDir, 'events.db');
  if (!existsSync(filename)) throw new Refusal(`no event store at ${filename}: nothing to verify (is DATA_DIR right?)`, 1);
  return openSqliteLogReader({ filename, onCommit: () => () => {} });
}

const describeBreak = (found: ChainBreak): string => {
  const where = `stream ${found.stream} revision ${found.revision}`;
  switch (found.kind) {
    case 'content':
      return `${where}: the event no longer matches its hash (recorded ${found.expected}, its content hashes to ${found.found})`;
    case 'link':
      return `${where}: its previous hash is ${found.found}, but the stream's previous event hashes to ${found.expected}`;
    case 'gap':
      return `${where}: expected ${found.expected} next in the stream, found ${found.found} (an event is missing)`;
    case 'unhashed':
      return `${where}: the event has no hash although its stream's chain began before it`;
  }
};

async function main(): Promise<number> {
  if (process.argv.length > 2) throw new Refusal(`unexpected argument ${process.argv[2]}; usage: npm run verify`, 2);
  const log = openLog(loadConfig());
  const checker = chainChecker();
  const breaks: (ChainBreak & { position: bigint })[] = [];
  try {
    let after: bigint | undefined;
    for (;;) {
      const page = await log.readAll({ after, maxCount: PAGE });
      for (const event of page) {
        const found = checker.check(chainedEventOf(event));
        if (found) breaks.push({ ...found, position: event.position });
      }
      if (page.length < PAGE) break;
      after = page.at(-1)!.position;
    }
  } finally {
    await log.close();
  }
  const { events, streams, unhashed } = checker.totals;
  const checked = `${events} events in ${streams} streams checked${unhashed > 0 ? ` (${unhashed} written before the chain existed, not hashed)` : ''}`;
  if (breaks.length === 0) {
    console.log(`event log intact: ${checked}`);
    return 0;
  }
  const [first, ...more] = breaks;
  console.error(`event log chain broken at position ${first!.position}, ${describeBreak(first!)}`);
  for (const next of more.slice(0, LISTED)) console.error(`  also at position ${next.position}, ${describeBreak(next)}`);
  if (more.length > LISTED) console.error(`  … and ${more.length - LISTED} more`);
  console.error(`${breaks.length} break${breaks.length === 1 ? '' : 's'}; ${checked}`);
  return 1;
}

main().then((code) => process.exit(code), exitOnCliError);
