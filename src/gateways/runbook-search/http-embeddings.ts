// Embeddings from an OpenAI-compatible endpoint: POST {url}/embeddings with {model, input}.
// The dimension is configured rather than probed so the vector store can be prepared before the
// first call, and every answer is checked against it (a mismatched model would corrupt the index).

import type { Embeddings } from './embeddings.js';

export interface HttpEmbeddingsConfig {
  url: string;
  model: string;
  dim: number;
  apiKey?: string;
  timeoutMs?: number;
  /** Inputs per request; providers cap the batch size. */
  batchSize?: number;
  fetch?: typeof fetch;
}

interface EmbeddingsAnswer {
  data?: { index?: number; embedding?: unknown }[];
}

export function httpEmbeddings(config: HttpEmbeddingsConfig): Embeddings {
  const endpoint = `${config.url.replace(/\/+$/, '')}/embeddings`;
  const doFetch = config.fetch ?? fetch;
  const batchSize = config.batchSize ?? 64;

  async function embedBatch(input: string[]): Promise<number[][]> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
    const res = await doFetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: config.model, input }),
      signal: AbortSignal.timeout(config.timeoutMs ?? 30_000),
    });
    if (!res.ok) throw new Error(`embeddings endpoint answered ${res.status}`);
    const body = (await res.json()) as EmbeddingsAnswer;
    const data = body.data ?? [];
    if (data.length !== input.length)
      throw new Error(`embeddings endpoint returned ${data.length} vectors for ${input.length} inputs`);
    // The API allows any order; `index` says which input each vector belongs to.
    const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return ordered.map((d) => {
      const e = d.embedding;
      if (
        !Array.isArray(e) ||
        e.length !== config.dim ||
        !e.every((x) => typeof x === 'number' && Number.isFinite(x))
      ) {
        throw new Error(`embeddings endpoint returned a vector that is not ${config.dim} finite numbers`);
      }
      return e as number[];
    });
  }

  return {
    dim: config.dim,
    model: config.model,
    async embed(texts) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += batchSize) out.push(...(await embedBatch(texts.slice(i, i + batchSize))));
      return out;
    },
  };
}
