/**
 * Composition of alerting: alert rules, incidents (commands, queries, live feed) and the
 * evaluator that turns metric readings into incidents on a node-schedule timer.
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { alertRuleCommandRoutes } from '../../commands/alert-rule-routes.js';
import { alertMetricRoutes } from '../../queries/alert-metrics.js';
import { incidentCommandRoutes } from '../../commands/incident-routes.js';
import { resolveIncidentForRule } from '../../commands/incidents.js';
import { ALERT_RULES, type AlertRuleDoc } from '../../projections/alert-rules.js';
import { alertRuleQueryRoutes, alertRuleView, findRule } from '../../queries/alert-rules.js';
import { incidentStreamRoutes } from '../../queries/incident-stream.js';
import { incidentQueryRoutes } from '../../queries/incidents.js';
import { findEscalationPolicy } from '../../queries/escalation-policies.js';
import type { CommandDeps, CommandEnvelope } from '../commanding/command-handler.js';
import type { Config } from '../config.js';
import { createLiveEventHub } from '../eventstore/live-event-hub.js';
import type { MetricRegistry } from '../gateways/warehouse/metrics/registry.js';
import type { ApiModule } from '../http/app.js';
import { countResolution, createEvaluator, createEvaluatorInstruments } from '../process/evaluator.js';
import { scheduleEvaluator } from '../process/evaluator-schedule.js';
import { createSubjectIncidents } from '../process/subject-incidents.js';
import type { DocChangeFeed } from '../readstore/doc-changes.js';
import type { ReadStore } from '../readstore/port.js';
import type { PlatformArea } from './area.js';
import type { Membership } from '../cluster/membership.js';
import { composeMaintenanceWindows } from './maintenance-windows.js';

export interface AlertingDeps {
  config: Config;
  commandDeps: CommandDeps;
  readStore: ReadStore;
  metrics: MetricRegistry;
  /** The cluster ids of an environment (null: not known), to refuse rules on a cluster it does not have. */
  clusterIds: (envId: string) => readonly string[] | null;
  logger: Logger;
  registry: Registry;
  /** The cluster's members: which rules this instance evaluates (by the bucket of their warehouse read, src/events/rule-shares.ts). */
  membership: Membership;
  /** The alertRules read model's change feed: the evaluator keeps the rules in memory by it. */
  ruleChanges: Pick<DocChangeFeed, 'subscribe'>;
  /** Told at every tick how many rules this instance evaluates. */
  onOwnedRules?: (count: number) => void;
  /** Told when a scheduled tick completes (the platform watch's evaluator watchdog). */
  onTick?: () => void;
  /** Each scheduled tick's start and end (a member whose tick is stuck gives its lease up). */
  tickProgress?: { begin(): () => void };
}

export function composeAlerting(deps: AlertingDeps) {
  const { commandDeps, readStore, config } = deps;
  const hub = createLiveEventHub(commandDeps.eventStore, deps.logger);
  const instruments = createEvaluatorInstruments(deps.registry);
  const windows = composeMaintenanceWindows({ commandDeps, reader: readStore, registry: deps.registry });
  const evaluatorDeps = {
    ...commandDeps,
    reader: readStore,
    ruleChanges: deps.ruleChanges,
    metrics: deps.metrics,
    logger: deps.logger,
    instruments,
    owns: (key: string) => deps.membership.owns(key),
    activeWindows: windows.activeWindows,
  };
  const newEvaluator = () => createEvaluator(evaluatorDeps);
  // Incidents of heartbeats, read failures and the platform itself: one open per subject.
  const subjectIncidents = createSubjectIncidents({ ...commandDeps, reader: readStore });
  // The scheduled one reports the rules it owns (the cluster's metrics); test evaluators do not.
  const evaluator = createEvaluator({ ...evaluatorDeps, onOwnedRules: deps.onOwnedRules });

  const resolveActiveIncident = async (
    envelope: CommandEnvelope,
    ruleId: string,
    reason: 'rule_deleted' | 'rule_disabled',
  ) => {
    const rule = await readStore.get<AlertRuleDoc>(ALERT_RULES, ruleId);
    if (!rule?.activeIncidentId) return null;
    countResolution(instruments, await resolveIncidentForRule(commandDeps, envelope, rule.activeIncidentId, reason));
    return rule.activeIncidentId;
  };

  const routes: ApiModule[] = [
    {
      alias: false,
      routes: () =>
        alertRuleCommandRoutes({
          ...commandDeps,
          metricIds: () => deps.metrics.ids(),
          policyExists: async (tenantId, id) => (await findEscalationPolicy(readStore, tenantId, id)) !== null,
          clusterIds: deps.clusterIds,
          viewRule: async (tenantId, id) => {
            const doc = await findRule(readStore, tenantId, id);
            return doc ? alertRuleView(doc) : null;
          },
          resolveActiveIncident,
        }),
    },
    { alias: false, routes: () => alertMetricRoutes({ metrics: deps.metrics, clusterIds: deps.clusterIds }) },
    { alias: false, routes: () => alertRuleQueryRoutes({ reader: readStore, eventStore: commandDeps.eventStore }) },
    // The live feed is registered before /incidents/:id so "stream" is never taken for an id.
    {
      alias: false,
      routes: () =>
        incidentStreamRoutes({
          eventStore: commandDeps.eventStore,
          hub,
          heartbeatMs: config.sseHeartbeatMs,
          caps: config.limits.incidentStreams,
        }),
    },
    {
      alias: false,
      routes: () =>
        incidentCommandRoutes({
          ...commandDeps,
          onResolved: (outcome) => countResolution(instruments, outcome),
          policyExists: async (tenantId, id) => (await findEscalationPolicy(readStore, tenantId, id)) !== null,
        }),
    },
    { alias: false, routes: () => incidentQueryRoutes({ reader: readStore, eventStore: commandDeps.eventStore }) },
    ...windows.routes,
  ];

  let schedule: ReturnType<typeof scheduleEvaluator> | undefined;
  const evaluatorSchedule = {
    start() {
      // The rules are read into memory now, not in the first tick (which waits for this read).
      evaluator.warm().catch((error) => deps.logger.error({ err: error }, 'could not read the alert rules'));
      // Each completed tick is told to the platform watch (a watchdog outside this loop).
      const observed = {
        tick: async () => {
          const ended = deps.tickProgress?.begin();
          try {
            const report = await evaluator.tick();
            deps.onTick?.();
            return report;
          } finally {
            ended?.();
          }
        },
      };
      schedule = scheduleEvaluator(observed, {
        intervalSeconds: config.alertEvaluationIntervalSeconds,
        logger: deps.logger,
      });
    },
    async stop() {
      await schedule?.stop();
    },
  };
  const liveFeed = { start() {}, stop: () => hub.close() };
  return {
    routes,
    processes: [evaluatorSchedule, liveFeed],
    evaluator,
    newEvaluator,
    subjectIncidents,
    hub,
    /** Counts a resolution made outside these routes (an action link), as the API's resolve does. */
    onIncidentResolved: (outcome: { events: unknown[]; state: import('../events/incident.js').IncidentState }) =>
      countResolution(instruments, outcome),
  } satisfies PlatformArea & Record<string, unknown>;
}
