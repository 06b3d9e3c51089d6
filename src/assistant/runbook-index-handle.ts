/**
 * The runbook index, built in the background at start so a slow vector store (Milvus far away, a
 * remote embeddings endpoint) never holds the platform's start. The search tool awaits it; a failed
 * build is retried by the next search rather than leaving the assistant without runbooks until a
 * restart.
 */
import type { RunbookIndex } from '../gateways/runbook-search/runbook-index.js';

export interface RunbookIndexHandle {
  get(): Promise<RunbookIndex>;
  /** What /health says: still building, ready (with the chunks inserted by this start), or failed. */
  state(): { status: 'building' | 'ready' | 'failed'; inserted?: number; error?: string };
}

export function runbookIndexHandle(
  build: () => Promise<RunbookIndex>,
  onFailure: (error: unknown) => void = () => undefined,
): RunbookIndexHandle {
  let current: Promise<RunbookIndex> | undefined;
  let state: ReturnType<RunbookIndexHandle['state']> = { status: 'building' };
  const start = () => {
    state = { status: 'building' };
    const attempt = build().then(
      (index) => {
        state = { status: 'ready', inserted: index.inserted };
        return index;
      },
      (error: unknown) => {
        state = { status: 'failed', error: error instanceof Error ? error.message : String(error) };
        if (current === attempt) current = undefined;
        onFailure(error);
        throw error;
      },
    );
    current = attempt;
    return attempt;
  };
  // Started at once; its failure is reported through onFailure and state, never unhandled.
  start().catch(() => undefined);
  return {
    get: () => current ?? start(),
    state: () => state,
  };
}
