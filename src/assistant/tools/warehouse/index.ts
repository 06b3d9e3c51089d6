/**
 * The assistant's 19 warehouse-performance tools, all over the warehouse port and scoped by the
 * caller's environment (ToolScope.envId; no tool takes a tenant or environment). Only
 * explain_query accepts SQL text, and only a single read-only SELECT.
 */
import type { WarehouseGateway } from '../../../gateways/warehouse/port.js';
import type { AssistantTool } from '../../tool.js';
import { listColumnsTool, listSchemasTool, listTablesTool } from './catalogue-tools.js';
import { clusterOverviewTool, nodeStorageTool } from './cluster-tools.js';
import { explainQueryTool } from './explain-tool.js';
import { diskSpillTool, queryDetailsTool, runningQueriesTool, slowQueriesTool } from './query-tools.js';
import { tableAlertsTool, tableHealthTool, tableStorageTool } from './table-tools.js';
import { commitQueueTool, loadErrorsTool, lockWaitsTool } from './transaction-tools.js';
import { concurrencyScalingUsageTool, userWorkloadTool, wlmQueueWaitsTool } from './workload-tools.js';

export function warehouseTools(warehouse: WarehouseGateway): AssistantTool[] {
  return [
    clusterOverviewTool(warehouse),
    nodeStorageTool(warehouse),
    runningQueriesTool(warehouse),
    slowQueriesTool(warehouse),
    queryDetailsTool(warehouse),
    explainQueryTool(warehouse),
    wlmQueueWaitsTool(warehouse),
    diskSpillTool(warehouse),
    tableHealthTool(warehouse),
    tableStorageTool(warehouse),
    tableAlertsTool(warehouse),
    lockWaitsTool(warehouse),
    commitQueueTool(warehouse),
    loadErrorsTool(warehouse),
    userWorkloadTool(warehouse),
    concurrencyScalingUsageTool(warehouse),
    listSchemasTool(warehouse),
    listTablesTool(warehouse),
    listColumnsTool(warehouse),
  ];
}
