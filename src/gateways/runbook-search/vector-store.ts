// The vector-store port the assistant's document search runs over. Implementations: the embedded
// in-process index (default) and Milvus. Scores are cosine similarities (higher is closer) in both,
// so callers can apply one threshold whichever store is configured.

export interface VectorRow {
  id: string;
  runbook: string;
  section: string;
  text: string;
  vector: number[];
}

export interface VectorHit {
  runbook: string;
  section: string;
  text: string;
  score: number;
}

export interface VectorStore {
  /** Creates (if missing) and readies the collection for vectors of `dim`; refuses another dim. */
  ensureCollection(dim: number): Promise<void>;
  /** Rows stored, strongly consistent: every acknowledged write is counted. */
  count(): Promise<number>;
  /** Writes rows, replacing any stored row with the same id (never a second copy). */
  upsert(rows: VectorRow[]): Promise<void>;
  search(vector: number[], topK: number): Promise<VectorHit[]>;
  close(): Promise<void>;
}

export const MAX_TOP_K = 50;

export function checkTopK(topK: number): number {
  if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K)
    throw new RangeError(`topK must be an integer in 1..${MAX_TOP_K}`);
  return topK;
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0,
    na = 0,
    nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!,
      y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
