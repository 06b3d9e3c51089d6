/**
 * The assistant's tools over the embedded defaults (simulated warehouse, generated bill, in-process
 * runbook index with local embeddings), as the platform builds them without configuration.
 */
import { assistantTools } from '../../src/assistant/tools/index.js';
import type { AssistantTool, ToolScope } from '../../src/assistant/tool.js';
import { createEmbeddedCostStore } from '../../src/gateways/cost/embedded/embedded-cost-store.js';
import { localEmbeddings } from '../../src/gateways/runbook-search/embeddings.js';
import { embeddedVectorStore } from '../../src/gateways/runbook-search/embedded-vector-store.js';
import { startRunbookIndex } from '../../src/gateways/runbook-search/runbook-index.js';
import { createSimulatedWarehouse } from '../../src/gateways/warehouse/simulated/simulated-gateway.js';

export function embeddedTools(now: () => Date = () => new Date()): AssistantTool[] {
  const index = startRunbookIndex(embeddedVectorStore(), localEmbeddings());
  return assistantTools({
    warehouse: createSimulatedWarehouse({ now }).gateway,
    cost: createEmbeddedCostStore(),
    runbooks: () => index,
  });
}

export const scopeOf = (tenantId: string, envId: string, now = new Date()): ToolScope => ({
  tenantId,
  envId,
  now,
  signal: new AbortController().signal,
});

/** Every JSON array in a value, with its JSON pointer. */
export function arraysOf(value: unknown, path = ''): { path: string; length: number }[] {
  if (Array.isArray(value))
    return [{ path: path || '/', length: value.length }, ...value.flatMap((item, i) => arraysOf(item, `${path}/${i}`))];
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => arraysOf(item, `${path}/${key}`));
  return [];
}

/** A tool result as the model reads it: the capped wrapper (tool-output-cap.ts) is unwrapped. */
export function resultValue(content: string): unknown {
  const parsed = JSON.parse(content) as Record<string, unknown>;
  return parsed && typeof parsed === 'object' && 'truncated' in parsed && 'result' in parsed ? parsed.result : parsed;
}
