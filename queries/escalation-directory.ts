/**
 * The read-model lookups the escalation manager resolves a stage's targets through (its
 * TargetDirectory port, src/process/escalation/target-resolution.ts) and reads a policy's plan
 * with; each scoped to the incident's tenant. The composition root passes them in.
 */
import type { EscalationPolicyDoc } from '../projections/escalation-policies.js';
import { GROUPS, type GroupDoc } from '../projections/groups.js';
import { USERS, type UserDoc } from '../projections/users.js';
import type { DeliveryChannel, TargetType } from '../src/events/escalation-policy.js';
import type { EscalationPlan } from '../src/events/escalation.js';
import { compileSchedule } from '../src/oncall/compiled-schedule.js';
import { scheduleWorkUnits } from '../src/process/escalation/escalation-preview.js';
import { directoryOver, type DirectoryReads } from '../src/process/escalation/preview-directory.js';
import type { ContactUser, TargetDirectory } from '../src/process/escalation/target-resolution.js';
import type { ReadModelReader } from '../src/readstore/port.js';
import type { SecretBox } from '../src/secrets/secret-box.js';
import { findChannel } from './channels.js';
import { findEscalationPolicy } from './escalation-policies.js';
import { findSchedule, scheduleDefinition, scheduleUsers } from './schedules.js';

/** A user is reachable while active and not removed. */
const contact = (user: UserDoc): ContactUser => ({
  id: user.id,
  name: user.name,
  email: user.email,
  phone: (user.phone as string | null | undefined) ?? null,
  active: user.isActive && !user.removed,
});

/** The reads behind the escalation directories (src/process/escalation/preview-directory.ts). */
export function readModelReads(reader: ReadModelReader, secrets: Pick<SecretBox, 'open'>): DirectoryReads {
  return {
    async user(tenantId, userId) {
      const user = await reader.get<UserDoc>(USERS, userId);
      return user && user.tenantId === tenantId && !user.removed ? contact(user) : null;
    },
    async activeGroupMembers(tenantId, groupId) {
      const group = await reader.get<GroupDoc>(GROUPS, groupId);
      if (!group || group.tenantId !== tenantId) return null;
      const members = await reader.find<UserDoc>(USERS, {
        tenantId,
        groupIds: { $contains: groupId },
        isActive: true,
        removed: false,
      });
      return members.map(contact);
    },
    async channel(tenantId, channelId) {
      const channel = await findChannel(reader, secrets, tenantId, channelId);
      if (!channel) return null;
      return { id: channel.id, type: channel.type, config: channel.config, signingSecret: channel.signingSecret };
    },
    async schedule(tenantId, scheduleId) {
      const schedule = await findSchedule(reader, tenantId, scheduleId);
      if (!schedule) return null;
      const definition = scheduleDefinition(schedule);
      const users = await scheduleUsers(reader, tenantId, definition);
      return {
        compiled: compileSchedule(definition, (userId) => users.has(userId)),
        contacts: new Map([...users.values()].map((user) => [user.id, contact(user)])),
        units: scheduleWorkUnits(definition),
      };
    },
  };
}

/** The escalation manager's directory: every lookup reads the read models as they are at that moment. */
export const readModelDirectory = (reader: ReadModelReader, secrets: Pick<SecretBox, 'open'>): TargetDirectory =>
  directoryOver(readModelReads(reader, secrets));

/** The plan an escalation follows, from the policy as the read model has it now (null: no such policy in the tenant). */
export async function escalationPlanOf(
  reader: ReadModelReader,
  tenantId: string,
  policyId: string,
): Promise<Pick<EscalationPlan, 'policyName' | 'stages' | 'repeatIntervalMinutes'> | null> {
  const policy: EscalationPolicyDoc | null = await findEscalationPolicy(reader, tenantId, policyId);
  if (!policy) return null;
  return {
    policyName: policy.name,
    repeatIntervalMinutes: policy.repeatIntervalMinutes,
    stages: policy.stages.map((stage) => ({
      stageOrder: stage.stage_order,
      delayMinutes: stage.delay_minutes,
      targets: stage.targets.map((t) => ({
        type: t.type as TargetType,
        id: t.id,
        channels: t.channels as DeliveryChannel[],
      })),
    })),
  };
}
