import { z } from 'zod';
import { PLAN_LINES_CAP, RefusedSqlError } from '../../../gateways/warehouse/diagnostics.js';
import type { WarehouseGateway } from '../../../gateways/warehouse/port.js';
import { checkReadOnlySelect, MAX_SQL_LENGTH } from '../../../gateways/warehouse/read-only-select.js';
import { defineTool } from '../../tool.js';
import { planNotes } from './plan-notes.js';

/**
 * EXPLAIN for a SELECT the model writes: the only tool that takes SQL text. The text must be a
 * single read-only SELECT (read-only-select.ts); anything else is refused before any warehouse is
 * asked. EXPLAIN plans the statement without running it.
 */
export function explainQueryTool(warehouse: WarehouseGateway) {
  return defineTool({
    name: 'explain_query',
    family: 'warehouse',
    description:
      'The execution plan (EXPLAIN) of one SELECT statement, without running it: scans, joins and how rows move between nodes (DS_DIST_NONE, DS_BCAST_INNER, DS_DIST_BOTH, ...), with notes on the costly steps. Only a single read-only SELECT (or WITH … SELECT) over the tables list_tables shows, each named with its schema (schema.table), is accepted; anything else is refused. To see the plan of a query that already ran, use query_details.',
    input: z.object({ sql: z.string().min(1).max(MAX_SQL_LENGTH).describe('one SELECT statement') }).strict(),
    output: z.object({
      plan: z.array(z.string()),
      notes: z.array(z.string()).describe('what in the plan is costly and why'),
    }),
    example: { sql: 'SELECT customer_id, COUNT(*) FROM analytics.fact_orders GROUP BY 1 ORDER BY 2 DESC LIMIT 10' },
    async run(input, { envId }) {
      const checked = await checkReadOnlySelect(input.sql);
      if (!checked.ok)
        throw new RefusedSqlError(`refused: ${checked.reason}; only a single read-only SELECT is accepted`);
      // Relations outside the environment's schemas are refused by every adapter's explain (not
      // here: listing the schemas reads views a plain Redshift user may not see).
      let lines: string[];
      try {
        lines = await warehouse.explain(envId, checked.statement);
      } catch (error) {
        if (error instanceof RefusedSqlError)
          throw new RefusedSqlError(`${error.message}; see list_schemas and list_tables`);
        throw error;
      }
      const plan = lines.slice(0, PLAN_LINES_CAP);
      return { plan, notes: planNotes(plan) };
    },
  });
}
