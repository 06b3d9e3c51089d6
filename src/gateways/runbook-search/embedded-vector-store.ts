// The default vector store: an in-process index with exact cosine search. The runbook corpus is a
// few dozen chunks, so a linear scan costs microseconds and needs no approximate index; it is
// rebuilt at each start from the shipped runbooks (nothing is persisted).

import { checkTopK, cosine, type VectorHit, type VectorRow, type VectorStore } from './vector-store.js';

export function embeddedVectorStore(): VectorStore {
  let dim: number | undefined;
  // Keyed by id: writing a chunk again replaces it, as an upsert into Milvus does.
  const rows = new Map<string, VectorRow>();

  const needDim = (): number => {
    if (dim === undefined) throw new Error('collection not created: call ensureCollection first');
    return dim;
  };

  return {
    async ensureCollection(d) {
      if (!Number.isInteger(d) || d < 1) throw new RangeError('dim must be a positive integer');
      if (dim !== undefined && dim !== d) throw new Error(`collection holds ${dim}-dimensional vectors, not ${d}`);
      dim = d;
    },
    async count() {
      return rows.size;
    },
    async upsert(batch) {
      const d = needDim();
      for (const r of batch)
        if (r.vector.length !== d)
          throw new Error(`vector for ${r.id} has ${r.vector.length} dimensions, expected ${d}`);
      for (const r of batch) rows.set(r.id, { ...r, vector: [...r.vector] });
    },
    async search(vector, topK) {
      const d = needDim();
      checkTopK(topK);
      if (vector.length !== d) throw new Error(`query vector has ${vector.length} dimensions, expected ${d}`);
      const hits: VectorHit[] = [...rows.values()].map((r) => ({
        runbook: r.runbook,
        section: r.section,
        text: r.text,
        score: cosine(vector, r.vector),
      }));
      return hits.sort((a, b) => b.score - a.score).slice(0, topK);
    },
    async close() {
      rows.clear();
    },
  };
}
