/**
 * The rules an evaluator acts on, kept in memory between ticks: read once in full (at start-up,
 * or after the read model was swapped by a rebuild), then kept equal to the alertRules read model
 * by its change feed (src/readstore/doc-changes.ts): before a tick, only the documents changed
 * since the last one are read again, by id.
 *
 * Reading 100,000 rule documents every tick was most of a tick's time (and held the event loop for
 * it, page by page); a quiet minute changes a few thousand of them (the evaluations the history
 * records, the incidents), so the rest need not be read again.
 *
 * Held: the enabled rules, and the disabled or deleted ones still holding an incident (which the
 * evaluator resolves), grouped by share bucket (src/events/rule-shares.ts) so a cluster member
 * walks only its own buckets and a takeover needs no read. The read model stays the truth: a
 * document is never changed here, only replaced by what the read model says now.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ALERT_RULES, type AlertRuleDoc } from '../../projections/alert-rules.js';
import { ruleShareBucket } from '../events/rule-shares.js';
import type { DocChangeFeed } from '../readstore/doc-changes.js';
import type { ReadModelReader } from '../readstore/port.js';
import { enabledRules, orphanedRules } from './owned-rules.js';

/** Changed ids re-read per query (one `id $in` read, then a turn of the event loop). */
const IDS_PER_READ = 200;
/**
 * Beyond this many changed rules since the last tick, one full read costs about what reading them
 * by id does, and the set of ids stops growing (an evaluator nobody ticks keeps no unbounded list).
 */
const FULL_READ_AFTER = 50_000;

export interface RuleMirror {
  /** Brings the rules up to date with the read model as the feed has told it so far. */
  refresh(): Promise<void>;
  /** The enabled rules and the orphaned ones (disabled or deleted, holding an incident) of these buckets (null: all). */
  rulesOf(buckets: readonly number[] | null): { enabled: AlertRuleDoc[]; orphaned: AlertRuleDoc[] };
  /** How many rules are held (every bucket). */
  size(): number;
  /** Every rule held, for comparing with the read model. */
  all(): AlertRuleDoc[];
}

const held = (doc: AlertRuleDoc) => (doc.isEnabled && !doc.deleted) || doc.activeIncidentId !== null;
const bucketOf = (doc: AlertRuleDoc) =>
  typeof doc.shareBucket === 'number' ? doc.shareBucket : ruleShareBucket(doc as Parameters<typeof ruleShareBucket>[0]);

export function createRuleMirror(reader: ReadModelReader, changes: Pick<DocChangeFeed, 'subscribe'>): RuleMirror {
  let byBucket = new Map<number, Map<string, AlertRuleDoc>>();
  let bucketById = new Map<string, number>();
  /** No full read has started yet, or the feed said the whole collection changed. */
  let readAll = true;
  let changed = new Set<string>();
  let running: Promise<void> = Promise.resolve();

  changes.subscribe((change) => {
    // Before the first full read nothing is held: that read will see the change.
    if (readAll) return;
    if (change.all) return markEverything();
    for (const id of change.ids) changed.add(id);
    if (changed.size > FULL_READ_AFTER) markEverything();
  });

  function markEverything() {
    readAll = true;
    changed = new Set();
  }

  function put(doc: AlertRuleDoc) {
    const before = bucketById.get(doc.id);
    const bucket = bucketOf(doc);
    if (before !== undefined && before !== bucket) byBucket.get(before)?.delete(doc.id);
    if (!held(doc)) {
      if (before !== undefined) byBucket.get(before)?.delete(doc.id);
      bucketById.delete(doc.id);
      return;
    }
    let docs = byBucket.get(bucket);
    if (!docs) byBucket.set(bucket, (docs = new Map()));
    docs.set(doc.id, doc);
    bucketById.set(doc.id, bucket);
  }

  function remove(id: string) {
    const bucket = bucketById.get(id);
    if (bucket === undefined) return;
    byBucket.get(bucket)?.delete(id);
    bucketById.delete(id);
  }

  /**
   * Every held rule, read in pages. Changes told while it reads are kept and read again by id at
   * the next refresh: the page that held such a rule may have been read before the change.
   */
  async function readEverything() {
    readAll = false;
    changed = new Set();
    byBucket = new Map();
    bucketById = new Map();
    try {
      const docs = [...(await enabledRules(reader)), ...(await orphanedRules(reader))];
      // Placed a slice at a time: 100,000 documents in one go would hold the event loop.
      for (let start = 0; start < docs.length; start += IDS_PER_READ) {
        for (const doc of docs.slice(start, start + IDS_PER_READ)) put(doc);
        await yieldToEventLoop();
      }
    } catch (error) {
      markEverything();
      throw error;
    }
  }

  /** The rules the feed named since the last refresh, read again by id; those gone from the read model are dropped. */
  async function readChanged() {
    const ids = [...changed];
    changed = new Set();
    for (let start = 0; start < ids.length; start += IDS_PER_READ) {
      const chunk = ids.slice(start, start + IDS_PER_READ);
      let docs: AlertRuleDoc[];
      try {
        docs = await reader.find<AlertRuleDoc>(ALERT_RULES, { id: { $in: chunk } }, { limit: chunk.length });
      } catch (error) {
        // Read again next time (unless a full read is due by then anyway).
        if (!readAll) for (const id of ids.slice(start)) changed.add(id);
        throw error;
      }
      const found = new Set<string>();
      for (const doc of docs) {
        found.add(doc.id);
        put(doc);
      }
      for (const id of chunk) if (!found.has(id)) remove(id);
      if (start + IDS_PER_READ < ids.length) await yieldToEventLoop();
    }
  }

  return {
    refresh() {
      // One at a time: a refresh asked for while another runs starts after it.
      running = running.catch(() => {}).then(() => (readAll ? readEverything() : readChanged()));
      return running;
    },
    rulesOf(buckets) {
      const enabled: AlertRuleDoc[] = [];
      const orphaned: AlertRuleDoc[] = [];
      const take = (docs: Map<string, AlertRuleDoc> | undefined) => {
        if (!docs) return;
        for (const doc of docs.values()) {
          if (doc.isEnabled && !doc.deleted) enabled.push(doc);
          else orphaned.push(doc);
        }
      };
      if (buckets === null) for (const docs of byBucket.values()) take(docs);
      else for (const bucket of buckets) take(byBucket.get(bucket));
      return { enabled, orphaned };
    },
    size: () => bucketById.size,
    all: () => [...byBucket.values()].flatMap((docs) => [...docs.values()]),
  };
}
