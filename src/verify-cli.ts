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
import { chainChecker, type ChainBreak } from './eventstore/event-chain.mjs';
import { createEventStoreDbStore } from './eventstore/eventstoredb.js';
import type { EventStore } from './eventstore/port.js';
import { chainedEventOf, standingBreaks } from './eventstore/recorded-chain.js';
import { openSqliteLogReader } from './eventstore/sqlite-log-reader.js';

/** Events read per page. */
const PAGE = 1000;
/** Breaks listed after the first. */
const LISTED = 20;

function openLog(config: Config): EventStore {
  if (config.eventStoreUrl) return createEventStoreDbStore(config.eventStoreUrl);
  const filename = join(config.dataDir, 'events.db');
  if (!existsSync(filename))
    throw new Refusal(`no event store at ${filename}: nothing to verify (is DATA_DIR right?)`, 1);
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
      return `${where}: the event has no hash although its stream's chain (or the log's) began before it`;
    case 'start':
      return `${where}: the stream's oldest stored event, but the stream has no retention, so its events before it were removed`;
  }
};

async function main(): Promise<number> {
  if (process.argv.length > 2) throw new Refusal(`unexpected argument ${process.argv[2]}; usage: npm run verify`, 2);
  const log = openLog(loadConfig());
  let breaks: (ChainBreak & { position: bigint })[] = [];
  let chainStart: bigint | null;
  let totals: ReturnType<typeof chainChecker>['totals'];
  try {
    chainStart = await log.chainStart();
    const checker = chainChecker({ chainStart });
    totals = checker.totals;
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
    breaks = await standingBreaks(log, breaks);
  } finally {
    await log.close();
  }
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
  console.error(`event log chain broken at position ${first!.position}, ${describeBreak(first!)}`);
  for (const next of more.slice(0, LISTED))
    console.error(`  also at position ${next.position}, ${describeBreak(next)}`);
  if (more.length > LISTED) console.error(`  … and ${more.length - LISTED} more`);
  console.error(`${breaks.length} break${breaks.length === 1 ? '' : 's'}; ${checked}`);
  return 1;
}

main().then((code) => process.exit(code), exitOnCliError);
