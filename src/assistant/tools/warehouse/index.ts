/** The assistant's warehouse-performance tools, all over the warehouse port (scoped by the caller's environment). */
import type { WarehouseGateway } from '../../../gateways/warehouse/port.js';
import type { AssistantTool } from '../../tool.js';

export function warehouseTools(_warehouse: WarehouseGateway): AssistantTool[] {
  return [];
}
