import { assertLookback, RefusedSqlError, type WarehouseDiagnostics } from '../diagnostics.js';
import { clusterIdOf, type RedshiftTarget } from '../environments.js';
import { checkReadOnlySelect, outsideReason, relationsOutside } from '../read-only-select.js';
import {
  catalogColumnFrom,
  catalogSchemaFrom,
  catalogTableFrom,
  commitRecordFrom,
  commitSummaryFrom,
  loadErrorFrom,
  lockWaitFrom,
  longQueryFrom,
  queryDetailsFrom,
  queueWaitFrom,
  runningQueryFrom,
  scalingPeriodFrom,
  userWorkloadFrom,
} from './diagnostics-row-mappers.js';
import type { ResultRow } from './result-rows.js';
import { columnsStatement, schemasStatement, tablesStatement } from './sql/catalogue-sql.js';
import {
  longestQueriesStatement,
  queryHeaderStatement,
  queryPlanStatement,
  queryStepsStatement,
  queueWaitsStatement,
  runningQueriesStatement,
} from './sql/query-diagnostics-sql.js';
import {
  commitSummaryStatement,
  concurrencyScalingStatement,
  loadErrorsStatement,
  lockWaitsStatement,
  userWorkloadStatement,
  worstCommitsStatement,
} from './sql/workload-diagnostics-sql.js';
import type { SqlStatement } from './statement-runner.js';

/** What the Redshift gateway lends its diagnostics: target resolution, the statement runner, the clock. */
export interface RedshiftStatements {
  targetOf(envId: string): RedshiftTarget;
  run(envId: string, target: RedshiftTarget, statement: SqlStatement): Promise<ResultRow[]>;
  /** toRedshiftTimestamp of now minus the hours. */
  since(hoursBack: number): string;
}

/** The environment schema as Redshift stores unquoted names (lower case). */
const sameSchema = (target: RedshiftTarget, schema: string) => schema.toLowerCase() === target.schema.toLowerCase();

export function redshiftDiagnostics({ targetOf, run, since: hoursBack }: RedshiftStatements): WarehouseDiagnostics {
  const since = (hours: number) => {
    assertLookback(hours);
    return hoursBack(hours);
  };
  /** Resolve, build the statement for the target, run it, map every row with the cluster id. */
  const ask = async <T>(
    envId: string,
    statementFor: (target: RedshiftTarget) => SqlStatement,
    mapRow: (clusterId: string) => (row: ResultRow) => T,
  ) => {
    const target = targetOf(envId);
    const rows = await run(envId, target, statementFor(target));
    return rows.map(mapRow(clusterIdOf(target)));
  };

  return {
    runningQueries: (envId) => ask(envId, (target) => runningQueriesStatement(target.kind), runningQueryFrom),
    longestQueries: (envId, hours) =>
      ask(envId, (target) => longestQueriesStatement(target.kind, since(hours)), longQueryFrom),

    async queryDetails(envId, queryId) {
      const target = targetOf(envId);
      const [header] = await run(envId, target, queryHeaderStatement(target.kind, queryId));
      if (!header) return null;
      const [steps, plan] = await Promise.all([
        run(envId, target, queryStepsStatement(target.kind, queryId)),
        run(envId, target, queryPlanStatement(target.kind, queryId)),
      ]);
      return queryDetailsFrom(clusterIdOf(target), header, steps, plan);
    },

    async explain(envId, selectSql) {
      // Checked again here: this is the one statement whose text comes from outside.
      const checked = await checkReadOnlySelect(selectSql);
      if (!checked.ok) throw new RefusedSqlError(`refused: ${checked.reason}`);
      const target = targetOf(envId);
      const outside = relationsOutside(checked.relations, [target.schema]);
      if (outside.length > 0) throw new RefusedSqlError(`refused: ${outsideReason(outside, [target.schema])}`);
      const rows = await run(envId, target, {
        name: 'warehouse-watch:explain',
        sql: `EXPLAIN ${checked.statement}`,
        parameters: {},
      });
      // EXPLAIN answers one text column ("QUERY PLAN"), a row per line.
      return rows.map((row) => String(Object.values(row)[0] ?? ''));
    },

    queueWaits: (envId, hours) => ask(envId, (target) => queueWaitsStatement(target.kind, since(hours)), queueWaitFrom),
    lockWaits: (envId) => ask(envId, (target) => lockWaitsStatement(target.kind), lockWaitFrom),

    async commitQueue(envId, hours) {
      const from = since(hours);
      const target = targetOf(envId);
      const [summary, worst] = await Promise.all([
        run(envId, target, commitSummaryStatement(target.kind, from)),
        run(envId, target, worstCommitsStatement(target.kind, from)),
      ]);
      const clusterId = clusterIdOf(target);
      return { summaries: commitSummaryFrom(clusterId, summary[0]), worst: worst.map(commitRecordFrom(clusterId)) };
    },

    loadErrors: (envId, hours) =>
      ask(envId, (target) => loadErrorsStatement(target.kind, target.schema, since(hours)), loadErrorFrom),
    userWorkload: (envId, hours) =>
      ask(envId, (target) => userWorkloadStatement(target.kind, since(hours)), userWorkloadFrom),
    concurrencyScaling: (envId, hours) =>
      ask(envId, (target) => concurrencyScalingStatement(target.kind, since(hours)), scalingPeriodFrom),

    schemas: (envId) => ask(envId, (target) => schemasStatement(target.schema), catalogSchemaFrom),
    async tables(envId, schema) {
      if (!sameSchema(targetOf(envId), schema)) return [];
      return ask(envId, (target) => tablesStatement(target.schema), catalogTableFrom);
    },
    async columns(envId, schema, table) {
      if (!sameSchema(targetOf(envId), schema)) return [];
      return ask(envId, (target) => columnsStatement(target.schema, table.toLowerCase()), catalogColumnFrom);
    },
  };
}
