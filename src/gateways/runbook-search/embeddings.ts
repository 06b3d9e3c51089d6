// The embeddings port and the default, deterministic local embedding.
//
// The local embedding hashes word unigrams (lightly stemmed) and adjacent-word bigrams into a
// fixed-dimension vector, weights them by log term frequency and L2-normalises the result, so cosine
// similarity is a bag-of-words overlap score. Limits, stated plainly: it knows no synonyms
// ("waiting" and "queued" only meet through the crude stemmer or not at all), no word order beyond
// bigrams, hash collisions add small noise, and it is English-only. It exists so the platform works
// offline and tests are reproducible; configure an HTTP embeddings endpoint for real semantic search.

export interface Embeddings {
  /** Length of every vector this embedder returns. */
  readonly dim: number;
  /** Identifies the embedding space; vectors from different models must not share a collection. */
  readonly model: string;
  embed(texts: string[]): Promise<number[][]>;
}

export const LOCAL_EMBEDDING_DIM = 256;

// Words that carry no topic; leaving them in would make every text look alike.
const STOP = new Set(
  (
    'a an and are as at be but by can do does for from has have how i if in into is it its ' +
    'my no not of on or our so that the their then there these they this to was we what when where which ' +
    'who why will with you your'
  ).split(' '),
);

export function tokens(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9_]+/g) ?? []).filter((w) => !STOP.has(w)).map(stem);
}

// A deliberately small suffix stripper: enough for "queries"/"query", "waiting"/"waits"/"wait".
function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

// FNV-1a: stable across runs and platforms, unlike anything seeded.
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function localEmbed(text: string, dim = LOCAL_EMBEDDING_DIM): number[] {
  const counts = new Map<string, number>();
  const ws = tokens(text);
  const add = (f: string, w: number) => counts.set(f, (counts.get(f) ?? 0) + w);
  ws.forEach((w, i) => {
    add(`u:${w}`, 1);
    if (i > 0) add(`b:${ws[i - 1]} ${w}`, 0.5);
  });
  const v = new Array<number>(dim).fill(0);
  for (const [feature, tf] of counts) {
    const h = fnv1a(feature);
    // A second hash bit picks the sign so collisions cancel out on average instead of piling up.
    v[h % dim]! += ((h >>> 31) & 1 ? -1 : 1) * (1 + Math.log(tf));
  }
  const norm = Math.hypot(...v);
  return norm === 0 ? v : v.map((x) => x / norm);
}

export function localEmbeddings(dim = LOCAL_EMBEDDING_DIM): Embeddings {
  return { dim, model: `local-hash-${dim}`, embed: async (texts) => texts.map((t) => localEmbed(t, dim)) };
}
