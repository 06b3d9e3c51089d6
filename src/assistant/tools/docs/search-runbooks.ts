import { z } from 'zod';
import type { RunbookIndex } from '../../../gateways/runbook-search/runbook-index.js';
import { defineTool } from '../../tool.js';

export const MAX_RUNBOOK_QUERY_CHARS = 500;

/**
 * Semantic search over the platform's runbooks (src/assistant/runbooks), answering passages with
 * their citation "runbook § section". The runbooks are the platform's own documents, the same for
 * every tenant, so this tool reads nothing of the caller's scope but the abort signal.
 *
 * `runbooks` waits for the index the platform builds at start (in the background), so a question
 * asked in the first moments is answered once the index is ready rather than from an empty one.
 */
export function searchRunbooksTool(runbooks: () => Promise<RunbookIndex>) {
  return defineTool({
    name: 'search_runbooks',
    family: 'docs',
    description:
      'Searches the platform runbooks (disk spill, queue waits, vacuum, table skew, stale statistics, paused cluster, escalation practice) and returns the closest passages, each with a citation "runbook § section". Cite it when recommending a remedy.',
    input: z
      .object({
        query: z.string().trim().min(1).max(MAX_RUNBOOK_QUERY_CHARS).describe('what to look for, in plain words'),
        top_k: z.number().int().min(1).max(10).default(3).describe('how many passages (1-10)'),
      })
      .strict(),
    output: z.object({
      results: z.array(
        z.object({
          citation: z.string(),
          runbook: z.string(),
          section: z.string(),
          text: z.string(),
          score: z.number(),
        }),
      ),
    }),
    example: { query: 'queries wait in the WLM queue', top_k: 3 },
    async run(input) {
      const index = await runbooks();
      const hits = await index.searchRunbooks(input.query, input.top_k);
      return {
        results: hits.map((hit) => ({
          citation: hit.citation,
          runbook: hit.runbook,
          section: hit.section,
          text: hit.text,
          score: Math.round(hit.score * 1000) / 1000,
        })),
      };
    },
  });
}
