/**
 * What every cost tool shares: the date range the model may name (or leave to a default ending
 * today), the caller's environment as the cost port's scope, and amounts as shares of a total.
 * Dates are ISO calendar days (UTC), both ends inclusive, as the cost port defines them.
 */
import { z } from 'zod';
import { addDays, isoDay, roundCents, type CostPort, type EnvironmentScope } from '../../../gateways/cost/port.js';
import type { ToolScope } from '../../tool.js';

export const CURRENCY = 'USD' as const;

export const rangeInput = {
  from: isoDay.optional().describe('First day, YYYY-MM-DD (UTC, inclusive). Default: 29 days before `to`.'),
  to: isoDay.optional().describe('Last day, YYYY-MM-DD (UTC, inclusive), not after today. Default: today.'),
};

/** Present only while the report is being refreshed (see `refreshWarning`). */
export const warningOutput = { warning: z.string().optional() };

export const rangeOutput = { from: z.string(), to: z.string(), currency: z.literal(CURRENCY), ...warningOutput };

export const today = (scope: ToolScope): string => scope.now.toISOString().slice(0, 10);

/**
 * The range a question is about. Spend after today does not exist yet (Athena would answer
 * nothing and the generated bill would invent it), so a range reaching past today is refused
 * with words the model can act on.
 */
export function resolveRange(
  input: { from?: string; to?: string },
  scope: ToolScope,
  defaultDays = 30,
): { from: string; to: string } {
  const last = today(scope);
  const to = input.to ?? last;
  if (to > last) throw new RangeError(`to (${to}) is after today (${last}): there is no spend after today yet`);
  const from = input.from ?? addDays(to, -(defaultDays - 1));
  return { from, to };
}

/** The cost port's scope: the token's tenant and environment, never anything the model said. */
export const costScope = (scope: ToolScope): EnvironmentScope => ({
  tenantId: scope.tenantId,
  environmentId: scope.envId,
});

export const sharePct = (cost: number, total: number): number =>
  total > 0 ? Math.round((cost / total) * 1000) / 10 : 0;

export const sumCosts = (rows: { cost: number }[]): number => roundCents(rows.reduce((sum, row) => sum + row.cost, 0));

export const REFRESH_WARNING =
  'AWS is refreshing the Cost and Usage Report right now (cost_and_usage_data_status says UPDATING): these figures may mix old and new line items; ask again once the refresh is over.';

/**
 * `{ warning }` while the report is being rewritten, else `{}`; asked alongside the question so
 * it adds no wait. An unknown status adds nothing: most answers come from a settled report.
 */
export async function refreshWarning(cost: CostPort): Promise<{ warning?: string }> {
  const status = await cost.dataStatus();
  return status.state === 'updating' ? { warning: REFRESH_WARNING } : {};
}
