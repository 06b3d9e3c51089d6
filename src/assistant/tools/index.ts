/**
 * Every tool the analytics assistant offers the model: the warehouse-performance tools, the cost
 * tools and the runbook search, in one list whose names are unique (a duplicate would make the
 * model's call ambiguous, so building the list refuses it).
 */
import type { CostPort } from '../../gateways/cost/port.js';
import type { RunbookIndex } from '../../gateways/runbook-search/runbook-index.js';
import type { WarehouseGateway } from '../../gateways/warehouse/port.js';
import type { AssistantTool } from '../tool.js';
import { costTools } from './cost/index.js';
import { searchRunbooksTool } from './docs/search-runbooks.js';
import { warehouseTools } from './warehouse/index.js';

export interface ToolSources {
  warehouse: WarehouseGateway;
  cost: CostPort;
  runbooks: () => Promise<RunbookIndex>;
}

export function assistantTools(sources: ToolSources): AssistantTool[] {
  return uniquelyNamed([
    ...warehouseTools(sources.warehouse),
    ...costTools(sources.cost),
    searchRunbooksTool(sources.runbooks),
  ]);
}

export function uniquelyNamed(tools: AssistantTool[]): AssistantTool[] {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(tool.name))
      throw new Error(`tool name ${tool.name} is not snake_case (at most 64 characters)`);
    if (seen.has(tool.name)) throw new Error(`two tools are named ${tool.name}`);
    seen.add(tool.name);
  }
  return tools;
}
