/**
 * Composition of paging: the notify port (real adapters behind the one guarded HTTP client), the
 * escalation manager, and the directory it resolves targets through (read models: users, groups,
 * schedules with the on-call math, channels).
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { join } from 'node:path';
import { ESCALATION_POLICIES, type EscalationPolicyDoc } from '../../projections/escalation-policies.js';
import { INCIDENTS, type IncidentDoc } from '../../projections/incidents.js';
import { GROUPS, type GroupDoc } from '../../projections/groups.js';
import { USERS, type UserDoc } from '../../projections/users.js';
import { escalationQueryRoutes } from '../../queries/escalations.js';
import { findChannel } from '../../queries/channels.js';
import { findSchedule, scheduleDefinition, scheduleUsers } from '../../queries/schedules.js';
import type { Config } from '../config.js';
import type { DeliveryChannel } from '../events/escalation-policy.js';
import type { EventStore } from '../eventstore/port.js';
import { createNotifier } from '../gateways/notify/notifier.js';
import { notifyAdaptersFromSettings } from '../gateways/notify/adapters-from-settings.js';
import type { NotifyPort } from '../gateways/notify/port.js';
import { currentOnCall } from '../oncall/current-on-call.js';
import { createEscalationInstruments, createEscalationManager } from '../process/escalation/escalation-manager.js';
import type { ContactUser, TargetDirectory } from '../process/escalation/target-resolution.js';
import type { ReadModelReader } from '../readstore/port.js';
import type { SchedulerLike } from 'rxjs';
import type { SecretBox } from '../secrets/secret-box.js';

type SecretOpener = Pick<SecretBox, 'open'>;
import type { PlatformArea } from './area.js';

const contact = (user: UserDoc): ContactUser => ({
  id: user.id, name: user.name, email: user.email, phone: (user.phone as string | null | undefined) ?? null, active: user.isActive && !user.removed,
});

export function readModelDirectory(reader: ReadModelReader, secrets: SecretOpener): TargetDirectory {
  return {
    async user(tenantId, userId) {
      const user = await reader.get<UserDoc>(USERS, userId);
      return user && user.tenantId === tenantId && !user.removed ? contact(user) : null;
    },
    async activeGroupMembers(tenantId, groupId) {
      const group = await reader.get<GroupDoc>(GROUPS, groupId);
      if (!group || group.tenantId !== tenantId) return null;
      const members = await reader.find<UserDoc>(USERS, { tenantId, groupIds: { $contains: groupId }, isActive: true, removed: false });
      return members.map(contact);
    },
    async onCall(tenantId, scheduleId, at) {
      const schedule = await findSchedule(reader, tenantId, scheduleId);
      if (!schedule) return 'no_schedule';
      const users = await scheduleUsers(reader, tenantId, schedule);
      const current = currentOnCall(scheduleDefinition(schedule), at, (userId) => users.has(userId));
      return current ? contact(users.get(current.userId)!) : null;
    },
    async channel(tenantId, channelId) {
      const channel = await findChannel(reader, secrets, tenantId, channelId);
      if (!channel) return null;
      return { id: channel.id, type: channel.type, config: channel.config, signingSecret: channel.signingSecret };
    },
  };
}

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
  secrets: SecretOpener;
  /** Resolves once the read models have applied the log up to `position` (false on timeout). */
  waitForProjections: (position: bigint) => Promise<boolean>;
}

export function composeEscalation(options: EscalationOptions): PlatformArea & { notify: NotifyPort; manager: ReturnType<typeof createEscalationManager> } {
  const { config, reader } = options;
  const settings = {
    allowPrivateNetworks: config.outboundAllowPrivateNetworks,
    outboxDirectory: join(config.dataDir, 'outbox'),
    ...config.notify,
  };
  const built = options.notify ? undefined : notifyAdaptersFromSettings(settings);
  const notify = options.notify ?? createNotifier({ adapters: built!.adapters, registry: options.registry, logger: options.logger });
  const manager = createEscalationManager({
    eventStore: options.eventStore,
    notify,
    directory: readModelDirectory(reader, options.secrets),
    now: options.now,
    logger: options.logger,
    registry: options.registry,
    scheduler: options.scheduler,
    instruments: createEscalationInstruments(options.registry),
    incidentUrl: (incidentId) => `${config.notify.publicUrl}/api/v1/incidents/${incidentId}`,
    findPolicy: async (tenantId, policyId) => {
      const policy = await reader.get<EscalationPolicyDoc>(ESCALATION_POLICIES, policyId);
      if (!policy || policy.tenantId !== tenantId) return null;
      return {
        policyName: policy.name,
        repeatIntervalMinutes: policy.repeatIntervalMinutes,
        stages: policy.stages.map((stage) => ({
          stageOrder: stage.stage_order, delayMinutes: stage.delay_minutes,
          targets: stage.targets.map((t) => ({ type: t.type as 'user', id: t.id, channels: t.channels as DeliveryChannel[] })),
        })),
      };
    },
    // Every incident still escalating (or not yet started); the reconcile decides what is due. The
    // incidents read model is caught up to the log's head first, so none triggered before a restart is missed.
    activeIncidents: async () => {
      if (!(await options.waitForProjections(await options.eventStore.headPosition()))) {
        options.logger.warn('escalation: the incidents read model had not caught up at start; listing what it has');
      }
      return (await reader.find<IncidentDoc>(INCIDENTS, { status: 'triggered' })).map((doc) => doc.id);
    },
  });
  return {
    notify,
    manager,
    projections: [],
    routes: [{ alias: false, routes: () => escalationQueryRoutes({ reader }) }],
    processes: [{
      start: () => void manager.start().catch((error) => options.logger.error({ err: error }, 'the escalation manager could not start')),
      stop: async () => {
        await manager.stop();
        await built?.client.close();
      },
    }],
  };
}
