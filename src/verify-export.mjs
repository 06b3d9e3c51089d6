#!/usr/bin/env node
/**
 * An auditor's offline check of an exported event history: the JSON that
 * `GET /api/v1/incidents/{id}/events` answered, saved to a file (the whole answer or its `data`).
 *
 *   node src/verify-export.mjs history.json
 *
 * Recomputes every event's hash from the fields the export holds (stream, revision, type, data,
 * metadata, previous_hash) and each link to the event before it, with Node alone (no packages):
 * exit 0 when the history is intact, 1 on a break (named), 2 when the file cannot be read as a
 * history. Intact means: nothing in the file was changed after the server wrote it, within what
 * the chain covers (src/eventstore/event-chain.mjs). With the entries' `log_chain_start` and
 * `stream_retention` (exports since the log records its chain start), an unhashed event from the
 * chain start on and a history that does not begin at revision 0 of a stream without retention
 * are breaks too; without them (an older export) neither is judged, and the output says so.
 * Keep the last hash: a later export whose chain passes through it proves the earlier events were
 * not rewritten since.
 */
import { readFileSync } from 'node:fs';
import { chainChecker } from './eventstore/event-chain.mjs';

function entriesOf(file) {
  const parsed = JSON.parse(readFileSync(file, 'utf8'));
  const entries = Array.isArray(parsed) ? parsed : parsed?.data;
  if (!Array.isArray(entries)) throw new Error('expected the events answer ({ "data": [...] }) or its array of events');
  for (const [index, entry] of entries.entries()) {
    const missing = ['stream', 'revision', 'type', 'data', 'metadata'].filter((key) => entry?.[key] === undefined);
    if (missing.length > 0) throw new Error(`event ${index} lacks ${missing.join(', ')}`);
  }
  return entries;
}

function main(args) {
  if (args.length !== 1) {
    console.error('usage: node src/verify-export.mjs history.json');
    return 2;
  }
  let entries;
  try {
    entries = entriesOf(args[0]);
  } catch (error) {
    console.error(`cannot read ${args[0]} as an exported history: ${error.message}`);
    return 2;
  }
  const recorded = entries.find((entry) => entry.log_chain_start != null);
  const checker = chainChecker({ chainStart: recorded ? BigInt(recorded.log_chain_start) : null });
  const breaks = entries
    .map((entry) => {
      const found = checker.check({ ...entry, hash: entry.hash, previousHash: entry.previous_hash });
      // Retention may have removed the stream's oldest events; nothing else does.
      return found?.kind === 'start' && entry.stream_retention === true ? undefined : found;
    })
    .filter((found) => found !== undefined);
  const { events, unhashed } = checker.totals;
  const legacy = recorded
    ? ''
    : '; no log_chain_start in the file (a log written before it was recorded, or an older export): unhashed events and a missing start not judged';
  const summary = `${events} events${unhashed > 0 ? ` (${unhashed} written before the chain existed, not hashed)` : ''}${legacy}`;
  if (breaks.length === 0) {
    const last = entries.findLast((entry) => entry.hash);
    console.log(`history intact: ${summary}${last ? `; last hash ${last.hash} (revision ${last.revision})` : ''}`);
    return 0;
  }
  for (const found of breaks) {
    console.error(
      `broken at stream ${found.stream} revision ${found.revision} (${found.kind}): expected ${found.expected}, found ${found.found}`,
    );
  }
  console.error(`${breaks.length} break${breaks.length === 1 ? '' : 's'} in ${summary}`);
  return 1;
}

process.exitCode = main(process.argv.slice(2));
