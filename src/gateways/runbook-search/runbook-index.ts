// Indexes the shipped runbooks into a vector store and answers searches with citations.
//
// The index is complete when a strongly consistent count equals the number of chunks; a start
// over a complete index embeds and writes nothing. Otherwise (empty, or a build cut off half-way,
// by a crash or a failed embeddings call) every chunk is upserted by its id, so a retry or a
// second instance building at the same time never stores a chunk twice, and the count is checked
// again before the index is declared complete. A runbook whose text changed but whose chunk count
// did not still needs a dropped collection (the count cannot see it).

import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { chunkRunbook, type RunbookChunk } from './chunks.js';
import type { Embeddings } from './embeddings.js';
import type { VectorStore } from './vector-store.js';

export const RUNBOOK_DIR = fileURLToPath(new URL('../../assistant/runbooks/', import.meta.url));

export interface RunbookAnswer {
  runbook: string;
  section: string;
  text: string;
  score: number;
  /** Human-readable citation, e.g. "queue-waits § Remedies". */
  citation: string;
}

export async function loadRunbookChunks(dir = RUNBOOK_DIR): Promise<RunbookChunk[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort();
  const chunks: RunbookChunk[] = [];
  for (const name of names) chunks.push(...chunkRunbook(name.slice(0, -3), await readFile(join(dir, name), 'utf8')));
  return chunks;
}

export interface RunbookIndex {
  /** Chunks written by this start: 0 when the collection already held them all. */
  readonly inserted: number;
  searchRunbooks(query: string, topK?: number): Promise<RunbookAnswer[]>;
}

export const MAX_QUERY_CHARS = 2_000;

export async function startRunbookIndex(
  store: VectorStore,
  embeddings: Embeddings,
  options: { dir?: string; batchSize?: number } = {},
): Promise<RunbookIndex> {
  await store.ensureCollection(embeddings.dim);
  const chunks = await loadRunbookChunks(options.dir);
  let inserted = 0;
  if ((await store.count()) !== chunks.length) {
    const batch = options.batchSize ?? 32;
    for (let i = 0; i < chunks.length; i += batch) {
      const part = chunks.slice(i, i + batch);
      // The heading goes into the embedded text: section titles ("Remedies", "Symptoms") and the
      // runbook title are strong signals that the body alone may not repeat.
      const vectors = await embeddings.embed(part.map((c) => `${c.title}\n${c.section}\n${c.text}`));
      await store.upsert(
        part.map((c, j) => ({ id: c.id, runbook: c.runbook, section: c.section, text: c.text, vector: vectors[j]! })),
      );
      inserted += part.length;
    }
    // Fewer rows than chunks: a write was lost. More: rows of chunks no longer shipped (a renamed
    // runbook or section), which searches may still return until the collection is dropped.
    const stored = await store.count();
    if (stored < chunks.length)
      throw new Error(`the runbook index holds ${stored} of ${chunks.length} chunks after writing them all`);
  }
  return {
    inserted,
    async searchRunbooks(query, topK = 3) {
      const q = query.trim();
      if (q.length === 0 || q.length > MAX_QUERY_CHARS)
        throw new RangeError(`query must be 1..${MAX_QUERY_CHARS} characters`);
      const [vector] = await embeddings.embed([q]);
      const hits = await store.search(vector!, topK);
      return hits.map((h) => ({ ...h, citation: `${h.runbook} § ${h.section}` }));
    },
  };
}
