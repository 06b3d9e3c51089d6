/**
 * Composition of paging: the notify port (real adapters behind the one guarded HTTP client) and
 * the escalation manager, given the read-model lookups it resolves targets and plans through
 * (queries/escalation-directory.ts).
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { join } from 'node:path';
import type { SchedulerLike } from 'rxjs';
import { INCIDENTS, type IncidentDoc } from '../../projections/incidents.js';
import { escalationPlanOf, readModelDirectory, readModelReads } from '../../queries/escalation-directory.js';
import { escalationQueryRoutes } from '../../queries/escalations.js';
import { escalationPreviewAnswer, escalationPreviewQueryRoutes } from '../../queries/escalation-preview.js';
import { escalationPreviewCommandRoutes } from '../../commands/escalation-preview-routes.js';
import { unknownTargetErrors } from '../../queries/escalation-policy-references.js';
import { holdingWindows } from './maintenance-windows.js';
import type { Config } from '../config.js';
import type { EventStore } from '../eventstore/port.js';
import { createNotifier } from '../gateways/notify/notifier.js';
import { notifyAdaptersFromSettings } from '../gateways/notify/adapters-from-settings.js';
import type { NotifyPort } from '../gateways/notify/port.js';
import { createEscalationInstruments, createEscalationManager } from '../process/escalation/escalation-manager.js';
import type { ReadModelReader } from '../readstore/port.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { PlatformArea } from './area.js';
import type { Membership } from '../cluster/membership.js';
import type { ActionLinkIssuer } from '../action-links/issue.js';
import type { HeavyRequestSlots } from '../http/heavy-request-slots.js';
import { requestDirectory } from '../process/escalation/preview-directory.js';
import type { Pause } from '../time-slice.js';

export interface EscalationOptions {
  config: Config;
  eventStore: EventStore;
  reader: ReadModelReader;
  logger: Logger;
  registry: Registry;
  now: () => Date;
  /** Tests: virtual time for the manager's timers. */
  scheduler?: SchedulerLike;
  /** Tests: a notify port of their own. */
  notify?: NotifyPort;
  /** Opens the sealed secrets of channel read models. */
  secrets: Pick<SecretBox, 'open'>;
  /** Resolves once the read models have applied the log up to `position` (false on timeout). */
  waitForProjections: (position: bigint) => Promise<boolean>;
  /** The cluster's members: which incidents this instance drives. */
  membership: Membership;
  /** Mints each page's acknowledge/resolve links (src/action-links); absent: pages carry none. */
  actionLinks?: ActionLinkIssuer;
  /** Each reconcile's start and end (a member whose escalation work is stuck gives its lease up). */
  progress?: { begin(): () => void };
  /** The instance's heavy-request slots, shared with backtests and analytics. */
  heavySlots: HeavyRequestSlots;
}

export function composeEscalation(options: EscalationOptions): PlatformArea & {
  notify: NotifyPort;
  manager: ReturnType<typeof createEscalationManager>;
  /** How many triggered incidents this instance drives now (for the cluster's metrics, on scrape). */
  ownedActiveIncidents(): Promise<number>;
} {
  const { config, reader } = options;
  const settings = {
    allowPrivateNetworks: config.outboundAllowPrivateNetworks,
    outboxDirectory: join(config.dataDir, 'outbox'),
    ...config.notify,
  };
  const built = options.notify ? undefined : notifyAdaptersFromSettings(settings);
  const notify =
    options.notify ?? createNotifier({ adapters: built!.adapters, registry: options.registry, logger: options.logger });
  // One directory for the manager and the preview, so a preview resolves targets as a stage does.
  const directory = readModelDirectory(reader, options.secrets);
  const manager = createEscalationManager({
    eventStore: options.eventStore,
    notify,
    directory,
    now: options.now,
    logger: options.logger,
    registry: options.registry,
    scheduler: options.scheduler,
    instruments: createEscalationInstruments(options.registry),
    incidentUrl: (incidentId) => `${config.notify.publicUrl}/api/v1/incidents/${incidentId}`,
    findPolicy: (tenantId, policyId) => escalationPlanOf(reader, tenantId, policyId),
    owns: (incidentId) => options.membership.owns(incidentId),
    tenure: () => options.membership.tenure(),
    progress: options.progress,
    // A stage's missing deliveries are made again once the member that fired it would have lost
    // its lease had it stopped right after firing: a survivor owns the incident only from then on.
    redeliveryGraceMs: config.cluster.leaseMs,
    onMembersChange: (listener) => options.membership.onChange(listener),
    maintenanceWindows: (tenantId, at) => holdingWindows(reader, tenantId, at),
    actionLinks:
      options.actionLinks &&
      ((tenantId, incidentId, recipient, target) =>
        options.actionLinks!.linksFor(tenantId, incidentId, recipient, target)),
    triggeredIncidentsOf: async (tenantId, position) => {
      await options.waitForProjections(position);
      return (await reader.find<IncidentDoc>(INCIDENTS, { tenantId, status: 'triggered' })).map((doc) => doc.id);
    },
    // Every incident still escalating (or not yet started), every one with a delivery retry
    // waiting, and every one with an all-clear or a pager acknowledgement not yet sent (resolved
    // while no instance ran, or its owner died); the reconcile decides what is due. The incidents
    // read model is caught up to the log's head first, so none changed before a restart is missed.
    activeIncidents: async () => {
      if (!(await options.waitForProjections(await options.eventStore.headPosition()))) {
        options.logger.warn('escalation: the incidents read model had not caught up at start; listing what it has');
      }
      const triggered = await reader.find<IncidentDoc>(INCIDENTS, { status: 'triggered' });
      const retrying = await reader.find<IncidentDoc>(INCIDENTS, { next_delivery_retry_at: { $ne: null } });
      const noticesPending = await reader.find<IncidentDoc>(INCIDENTS, { notices_pending: true });
      return [...new Set([...triggered, ...retrying, ...noticesPending].map((doc) => doc.id))];
    },
  });
  // A preview resolves through the same reads, each once per request, yielding between time slices.
  const reads = readModelReads(reader, options.secrets);
  const preview = {
    reader,
    now: options.now,
    workBudget: config.limits.escalationPreviewWorkUnits,
    directoryForRequest: (pause: Pause) => requestDirectory(reads, pause),
  };
  return {
    notify,
    manager,
    ownedActiveIncidents: async () =>
      (await reader.find<IncidentDoc>(INCIDENTS, { status: 'triggered' })).filter((doc) =>
        options.membership.owns(doc.id),
      ).length,
    routes: [
      { alias: false, routes: () => escalationQueryRoutes({ reader }) },
      { alias: false, routes: () => escalationPreviewQueryRoutes({ ...preview, slots: options.heavySlots }) },
      {
        alias: false,
        routes: () =>
          escalationPreviewCommandRoutes({
            unknownTargets: (tenantId, stages) => unknownTargetErrors(reader, tenantId, stages),
            preview: escalationPreviewAnswer(preview),
            slots: options.heavySlots,
          }),
      },
    ],
    processes: [
      {
        start: () =>
          void manager
            .start()
            .catch((error) => options.logger.error({ err: error }, 'the escalation manager could not start')),
        stop: async () => {
          await manager.stop();
          await built?.client.close();
        },
      },
    ],
  };
}
