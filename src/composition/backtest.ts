/**
 * Composition of the rule backtest: which metric history answers. The simulated warehouse (the
 * embedded default) answers from its deterministic history unless the request asks for the
 * relational store; against Redshift, history is what the data sync mirrored into the relational
 * store (`cluster_metrics`), the only record of the past the platform keeps. The embedded
 * relational store is opened on the first backtest that reads it, as on the first sync run.
 */
import { alertRuleBacktestRoutes } from '../../commands/alert-rule-backtest-routes.js';
import { findRule } from '../../queries/alert-rules.js';
import { readFailureSettingsOf } from '../events/alert-rule.js';
import { findEscalationPolicy } from '../../queries/escalation-policies.js';
import type { Config } from '../config.js';
import type { EscalationStage } from '../events/escalation-policy.js';
import type { MetricRegistry } from '../gateways/warehouse/metrics/registry.js';
import { simulatedHistorySource } from '../gateways/warehouse/simulated/simulated-history.js';
import { MAINTENANCE_WINDOWS, type MaintenanceWindowDoc } from '../../projections/maintenance-windows.js';
import type { BacktestWindow } from '../backtest/maintenance-timeline.js';
import type { HistorySourceName, MetricHistorySource } from '../gateways/warehouse/metric-history-port.js';
import { intervalOf } from '../process/sync/schedule-grid.js';
import type { ReadModelReader } from '../readstore/port.js';
import { syncStoreHistorySource } from '../syncstore/metric-history.js';
import type { SyncStore } from '../syncstore/store.js';
import type { HeavyRequestSlots } from '../http/heavy-request-slots.js';
import type { PlatformArea } from './area.js';

/**
 * The tenant's windows that can have been active at or after `since`: not over before it, ended
 * ones with their `endedAt`, and deleted ones too, cut at their deletion (until then the evaluator
 * saw them). Each silences only from its creation, as live: the evaluator never saw it before.
 * The window as it is now: an edit's earlier timing is not reconstructed.
 */
async function windowsSince(reader: ReadModelReader, tenantId: string, since: number): Promise<BacktestWindow[]> {
  const docs = await reader.find<MaintenanceWindowDoc>(
    MAINTENANCE_WINDOWS,
    { tenantId, liveUntil: { $gt: new Date(since).toISOString() } },
    { sort: [['createdAt', 'asc']] },
  );
  return docs.map((doc) => {
    const stoppedAt =
      doc.deleted && (doc.endedAt === null || doc.updatedAt < doc.endedAt) ? doc.updatedAt : doc.endedAt;
    return {
      id: doc.id,
      name: doc.name,
      matcher: doc.matcher,
      timing: doc.timing,
      createdAt: doc.createdAt,
      endedAt: stoppedAt,
    };
  });
}

export function composeBacktest(deps: {
  config: Config;
  reader: ReadModelReader;
  now: () => Date;
  warehouse: {
    mode: 'simulated' | 'redshift';
    metrics: MetricRegistry;
    clusterIds: (envId: string) => readonly string[] | null;
  };
  syncStore: SyncStore;
  heavySlots: HeavyRequestSlots;
}): PlatformArea {
  const { config, reader, warehouse } = deps;
  const sources: Partial<Record<HistorySourceName, MetricHistorySource>> = {
    // A sample stands for the instants until the next run would have replaced it.
    sync_store: syncStoreHistorySource({
      store: deps.syncStore,
      lookbackMs: intervalOf(config.sync.intervals, 'cluster_metrics') * 1000,
    }),
  };
  if (warehouse.mode === 'simulated') sources.simulator = simulatedHistorySource();
  return {
    routes: [
      {
        alias: false,
        routes: () =>
          alertRuleBacktestRoutes({
            slots: deps.heavySlots,
            findRule: async (tenantId, ruleId) => {
              const doc = await findRule(reader, tenantId, ruleId);
              return (
                doc && {
                  id: doc.id,
                  envId: doc.envId,
                  clusterId: doc.clusterId,
                  metric: doc.metric,
                  condition: doc.condition,
                  threshold: doc.threshold,
                  windowMinutes: doc.evaluationWindowMinutes,
                  severity: doc.severity,
                  escalationPolicyId: doc.escalationPolicyId,
                  readFailure: readFailureSettingsOf(doc),
                }
              );
            },
            windowsOverlapping: (tenantId, since) => windowsSince(reader, tenantId, since),
            findPolicy: async (tenantId, policyId) => {
              const doc = await findEscalationPolicy(reader, tenantId, policyId);
              return (
                doc && {
                  stages: doc.stages.map((stage) => ({
                    stageOrder: stage.stage_order,
                    delayMinutes: stage.delay_minutes,
                    targets: stage.targets as EscalationStage['targets'],
                  })),
                  repeatIntervalMinutes: doc.repeatIntervalMinutes,
                }
              );
            },
            sources,
            defaultSource: warehouse.mode === 'simulated' ? 'simulator' : 'sync_store',
            evaluatorIntervalSeconds: config.alertEvaluationIntervalSeconds,
            now: deps.now,
            references: {
              metricIds: () => warehouse.metrics.ids(),
              policyExists: async (tenantId, id) => (await findEscalationPolicy(reader, tenantId, id)) !== null,
              clusterIds: warehouse.clusterIds,
            },
          }),
      },
    ],
    processes: [],
  };
}
