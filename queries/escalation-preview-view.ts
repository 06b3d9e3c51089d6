/**
 * How an escalation preview reads (queries/escalation-preview.ts): per stage, who would be reached,
 * by what, at which masked address and why; and who could not be, with the reason. Addresses are
 * masked as delivery records mask them (src/gateways/notify/target-description.ts), and
 * `delivery_target` is exactly what the NotificationDelivered event of that delivery would name.
 * A channel shows where it goes without its credentials: a chat channel's channel name, a webhook's
 * scheme and host, a pager's masked integration key.
 */
import type { EscalationPreview, PreviewStage } from '../src/contract/escalation-preview.js';
import { CHANNELS, type ChannelDoc } from '../projections/channels.js';
import { GROUPS, type GroupDoc } from '../projections/groups.js';
import { SCHEDULES, type ScheduleDoc } from '../projections/schedules.js';
import { USERS, type UserDoc } from '../projections/users.js';
import { maskSecret } from '../src/events/channel-secrets.js';
import type { TargetType } from '../src/events/escalation-policy.js';
import type { NotifyTarget } from '../src/gateways/notify/port.js';
import { describeTarget, maskEmail, maskPhone } from '../src/gateways/notify/target-description.js';
import { findTenantDoc } from '../src/http/read-model-routes.js';
import type { OnCallSource } from '../src/oncall/schedule-definition.js';
import type { PreviewedStage, PreviewPlan } from '../src/process/escalation/escalation-preview.js';
import type { ResolvedRecipient } from '../src/process/escalation/target-resolution.js';
import type { ReadModelReader } from '../src/readstore/port.js';
import { noPause, type Pause } from '../src/time-slice.js';

const COLLECTIONS: Record<TargetType, string> = { user: USERS, group: GROUPS, schedule: SCHEDULES, channel: CHANNELS };

/**
 * Names of the plan's targets in the tenant (`type:id` → name; absent when the target is gone). A
 * policy may name 1,000 distinct targets, and a large schedule's document takes a while to read:
 * one at a time, each waiting its turn of the request's time slice.
 */
export async function targetNames(
  reader: ReadModelReader,
  tenantId: string,
  plan: PreviewPlan,
  pause: Pause = noPause,
): Promise<Map<string, string>> {
  const keys = [
    ...new Set(plan.stages.flatMap((stage) => stage.targets.map((target) => `${target.type}:${target.id}`))),
  ];
  const names = new Map<string, string>();
  for (const key of keys) {
    await pause();
    const [type, id] = key.split(':') as [TargetType, string];
    const doc = await findTenantDoc<UserDoc | GroupDoc | ScheduleDoc | ChannelDoc>(
      reader,
      COLLECTIONS[type],
      tenantId,
      id,
    );
    if (doc && doc.removed !== true) names.set(key, String(doc.name));
  }
  return names;
}

function maskedAddress(target: NotifyTarget): string {
  switch (target.medium) {
    case 'email':
      return target.config.recipients.map(maskEmail).join(', ');
    case 'sms':
      return maskPhone(target.phone);
    case 'chat':
      return target.config.channel_name;
    case 'webhook':
      return URL.canParse(target.config.url) ? new URL(target.config.url).origin : '***';
    case 'pager':
      return `integration key ${maskSecret(target.config.integration_key)}`;
  }
}

const onCallView = (source: OnCallSource) =>
  source.source === 'layer'
    ? { source: 'layer' as const, layer: source.layerIndex }
    : { source: 'override' as const, override_id: source.overrideId };

function why(recipient: ResolvedRecipient, name: string): string {
  const { via } = recipient.recipient;
  switch (via.type) {
    case 'user':
      return 'named by the stage';
    case 'group':
      return `member of group ${name}`;
    case 'schedule': {
      const source = recipient.onCallSource;
      const how = !source
        ? ''
        : source.source === 'layer'
          ? ` via layer ${source.layerIndex}`
          : ` via override ${source.overrideId}`;
      return `on call for schedule ${name}${how}`;
    }
    case 'channel':
      return `notification channel ${name}`;
  }
}

function recipientView(resolved: ResolvedRecipient, names: Map<string, string>) {
  const { recipient, target, person } = resolved;
  const name = names.get(`${recipient.via.type}:${recipient.via.id}`) ?? null;
  const via = { type: recipient.via.type, id: recipient.via.id, name };
  if (!target) {
    return {
      reachable: false as const,
      view: { via, person: person ?? null, medium: recipient.medium, reason: recipient.unreachable ?? 'unreachable' },
    };
  }
  return {
    reachable: true as const,
    view: {
      person: person ?? null,
      channel: recipient.via.type === 'channel' ? { id: recipient.via.id, name, type: target.medium } : null,
      medium: target.medium,
      address: maskedAddress(target),
      delivery_target: describeTarget(target),
      via,
      why: why(resolved, name ?? recipient.via.id),
      on_call: resolved.onCallSource ? onCallView(resolved.onCallSource) : null,
    },
  };
}

export function stageView(stage: PreviewedStage, names: Map<string, string>): PreviewStage {
  const views = stage.recipients.map((recipient) => recipientView(recipient, names));
  return {
    stage_order: stage.stageOrder,
    cycle: stage.cycle,
    fires_at: stage.firesAt.toISOString(),
    offset_minutes: stage.offsetMinutes,
    recipients: views.flatMap((v) => (v.reachable ? [v.view] : [])),
    unreachable: views.flatMap((v) => (v.reachable ? [] : [v.view])),
  };
}

/** How the escalation goes on after the cycles listed (null: it does not repeat). */
export function repeatView(plan: PreviewPlan, stages: PreviewedStage[]): EscalationPreview['repeat'] {
  if (plan.repeatIntervalMinutes <= 0 || stages.length === 0) return null;
  const last = stages.at(-1)!;
  const lastOrder = Math.max(...plan.stages.map((stage) => stage.stageOrder));
  return {
    interval_minutes: plan.repeatIntervalMinutes,
    next_cycle: last.cycle + 1,
    next_cycle_at: new Date(last.firesAt.getTime() + plan.repeatIntervalMinutes * 60_000).toISOString(),
    description: `${plan.repeatIntervalMinutes} minutes after stage ${lastOrder} fires, stage 1 fires again and the cycle repeats, until the incident is acknowledged or resolved`,
  };
}
