/**
 * The tamper-evident chain of a stream: every event carries
 *
 *   hash = hex(SHA-256(UTF-8(canonical({ stream, revision, type, data, metadata, previousHash }))))
 *
 * where `revision` is the decimal string of the event's revision in its stream, `previousHash` the
 * hash of the stream's previous event (null for the stream's first hashed event), and `canonical`
 * RFC 8785 (JCS): JSON with no whitespace, object keys sorted by UTF-16 code units, strings and
 * numbers written as JavaScript's JSON.stringify writes them, keys whose value is undefined left
 * out. A chain per stream, not over the whole log: the stream's expected revision already orders
 * its appends, so instances never wait for each other for the chain.
 *
 * Plain JavaScript with no dependency, so an auditor checks an exported history with Node alone
 * (src/verify-export.mjs); the stores hash through the same functions.
 */
import { createHash } from 'node:crypto';

/** A copy of `value` with every object's keys in canonical order (the value itself for primitives). */
function sortedCopy(value, ancestors) {
  if (value === null || typeof value !== 'object') return value;
  if (typeof value.toJSON === 'function') return sortedCopy(value.toJSON(), ancestors);
  // JSON.stringify's own words, so a caller's error says what it always said.
  if (ancestors.includes(value)) throw new TypeError('Converting circular structure to JSON');
  ancestors.push(value);
  let copy;
  if (Array.isArray(value)) copy = value.map((item) => sortedCopy(item, ancestors));
  else {
    copy = {};
    for (const key of Object.keys(value).sort()) {
      // An own "__proto__" key (JSON.parse makes one) is data: assigning it would set the prototype.
      if (key === '__proto__')
        Object.defineProperty(copy, key, {
          value: sortedCopy(value[key], ancestors),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else copy[key] = sortedCopy(value[key], ancestors);
    }
  }
  ancestors.pop();
  return copy;
}

/**
 * The canonical JSON text of a value. The sorted copy is written by the native JSON.stringify
 * (twice as fast as writing it in JavaScript), which also refuses a BigInt in its usual words.
 */
export function canonicalJson(value) {
  return JSON.stringify(sortedCopy(value, []));
}

/**
 * The hash from parts already in canonical form (`dataJson`, `metadataJson`): the keys of the
 * hashed object are written in their sorted order (data, metadata, previousHash, revision, stream,
 * type), so this is canonical({ ... }) without sorting again. The embedded log stores canonical
 * text and hashes here, on its writer thread.
 */
export function chainHashOfCanonical(stream, revision, type, dataJson, metadataJson, previousHash) {
  const hashed = `{"data":${dataJson},"metadata":${metadataJson},"previousHash":${previousHash === null ? 'null' : JSON.stringify(previousHash)},"revision":${JSON.stringify(String(revision))},"stream":${JSON.stringify(stream)},"type":${JSON.stringify(type)}}`;
  return createHash('sha256').update(hashed, 'utf8').digest('hex');
}

/** The hash of one event, from its parsed fields (what `npm run verify` and an auditor recompute). */
export function chainHash({ stream, revision, type, data, metadata, previousHash }) {
  return chainHashOfCanonical(stream, revision, type, canonicalJson(data), canonicalJson(metadata), previousHash);
}

/**
 * Checks events against their streams' chains, fed in log order (or at least each stream in
 * revision order), remembering each stream's last hash; returns the break an event shows, if any:
 * - `content`: the event's fields no longer hash to the hash recorded with it (its data, metadata,
 *   type, stream or revision were changed, or the hash was);
 * - `link`: its recorded previous hash is not the hash of the stream's event before it (an event
 *   was replaced, or the chain re-hashed from a changed event on);
 * - `gap`: revisions skip inside what was read (an event was deleted);
 * - `unhashed`: an event without a hash after its stream's chain began, or at or after the log's
 *   chain start (a hash was removed);
 * - `start`: the first event read of a stream is not revision 0, in a log that records its chain
 *   start: its oldest events are gone. Only retention may remove them, and the checker does not
 *   know a stream's retention: the caller drops this break for a stream with retention (or, when
 *   it read only the log's newest events, for a stream whose revision 0 is still stored).
 *
 * `chainStart` (the log's first position from which every event carries a hash; events then need
 * their `position`) is null for a log written before that record existed (legacy): there, events
 * before a stream's first hashed event are counted as `unhashed` and not otherwise checked (they
 * were written before the chain existed), and a stream's first event read may follow events
 * removed by retention; only its own hash is checked then (and a revision 0 must start the chain).
 * After a break the stream goes on from the recorded hash, so one changed event is one break.
 */
export function chainChecker({ chainStart = null } = {}) {
  const start = chainStart === null ? null : BigInt(chainStart);
  const heads = new Map();
  const totals = { events: 0, unhashed: 0, streams: 0 };
  const afterChainStart = (event) => start !== null && event.position != null && BigInt(event.position) >= start;
  return {
    totals,
    /** `event`: { stream, revision, type, data, metadata, hash, previousHash, position? } (revision, position: bigint, number or decimal string). */
    check(event) {
      const revision = BigInt(event.revision);
      const before = heads.get(event.stream);
      if (!before) totals.streams += 1;
      totals.events += 1;
      heads.set(event.stream, { revision, hash: event.hash ?? null });
      const at = { stream: event.stream, revision: String(revision) };
      if (before && revision !== before.revision + 1n) {
        return { ...at, kind: 'gap', expected: `revision ${before.revision + 1n}`, found: `revision ${revision}` };
      }
      if (event.hash == null) {
        totals.unhashed += 1;
        return before?.hash || afterChainStart(event)
          ? { ...at, kind: 'unhashed', expected: 'a hash', found: 'none' }
          : undefined;
      }
      const recomputed = chainHash({ ...event, revision, previousHash: event.previousHash ?? null });
      if (recomputed !== event.hash) return { ...at, kind: 'content', expected: event.hash, found: recomputed };
      const expectedPrevious = before ? before.hash : revision === 0n ? null : undefined;
      if (expectedPrevious !== undefined && (event.previousHash ?? null) !== expectedPrevious) {
        return { ...at, kind: 'link', expected: expectedPrevious, found: event.previousHash ?? null };
      }
      if (!before && revision > 0n && start !== null)
        return { ...at, kind: 'start', expected: 'revision 0', found: `revision ${revision}` };
      return undefined;
    },
  };
}
