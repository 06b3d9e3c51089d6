/** The assistant's six cost tools, all over the cost port (Athena or the embedded bill), scoped by the caller's environment. */
import type { CostPort } from '../../../gateways/cost/port.js';
import type { AssistantTool } from '../../tool.js';
import { costAnomaliesTool } from './cost-anomalies.js';
import { costByServiceTool } from './cost-by-service.js';
import { costTrendTool } from './cost-trend.js';
import { monthEndForecastTool } from './month-end-forecast.js';
import { redshiftCostBreakdownTool } from './redshift-cost-breakdown.js';
import { topCostDriversTool } from './top-cost-drivers.js';

export function costTools(cost: CostPort): AssistantTool[] {
  return [
    costByServiceTool(cost),
    costTrendTool(cost),
    redshiftCostBreakdownTool(cost),
    topCostDriversTool(cost),
    costAnomaliesTool(cost),
    monthEndForecastTool(cost),
  ];
}
