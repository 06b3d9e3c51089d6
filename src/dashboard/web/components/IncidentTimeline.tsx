/**
 * Every event of the incident's stream, oldest first, each in words: who acted (by name, "you"),
 * which policy the escalation follows, who each stage reached and each notification went to. The
 * entries after the slider's position are marked `ahead`. Event data is as stored (camelCase,
 * src/events/incident.ts and escalation.ts).
 */
import type { IncidentEvent } from '../api/types';
import { time } from '../format';
import type { Who } from './use-people';

/** Names the channels deliveries went through (`channel:<id>`), when the reader may list channels. */
export type ChannelLabel = (id: string) => string | undefined;

type Data = Record<string, unknown>;
const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** Where a notification went: the person (a user's key) or channel by name, and the masked address the event records. */
function recipient(data: Data, who: Who, channel: ChannelLabel): string {
  const key = text(data.recipientKey);
  const target = text(data.target);
  const named = key.startsWith('user:')
    ? who(key)
    : key.startsWith('channel:')
      ? channel(key.slice('channel:'.length))
      : undefined;
  const targetChannel = target.startsWith('channel:') ? channel(target.slice('channel:'.length)) : undefined;
  if (named && targetChannel && named === targetChannel) return named;
  return [named, targetChannel ?? target].filter(Boolean).join(' ');
}

function stageReached(data: Data, who: Who, channel: ChannelLabel): string {
  const reached = (data.recipients as Data[] | undefined) ?? [];
  const names = reached.map((r) => {
    const key = text(r.key);
    const name = key.startsWith('channel:')
      ? (channel(key.slice('channel:'.length)) ?? 'a channel')
      : key
        ? who(key)
        : 'nobody';
    return r.unreachable
      ? `${name} (unreachable: ${text(r.unreachable)})`
      : `${name}${r.medium ? ` by ${text(r.medium)}` : ''}`;
  });
  return names.length > 0 ? ` → ${names.join(', ')}` : '';
}

export function describeEvent(event: IncidentEvent, who: Who, channel: ChannelLabel): string {
  const data = event.data;
  switch (event.type) {
    case 'IncidentTriggered':
      return `value ${text(data.currentValue ?? data.value)}`;
    case 'IncidentAcknowledged':
      return `by ${who(text(data.by))}`;
    case 'IncidentResolved':
      return `by ${who(text(data.by))} (${text(data.reason)})${data.note ? `: ${text(data.note)}` : ''}`;
    case 'IncidentNoteAdded':
      return `${who(text(data.by))}: ${text(data.text)}`;
    case 'EscalationStarted': {
      const stages = (data.stages as unknown[] | undefined)?.length ?? 0;
      return `policy ${text(data.policyName)} (${stages} stage${stages === 1 ? '' : 's'})`;
    }
    case 'EscalationNotStarted':
      return text(data.reason);
    case 'EscalationStageFired':
      return `stage ${text(data.stageOrder)}${Number(data.cycle) > 0 ? `, repeat ${text(data.cycle)}` : ''}${stageReached(data, who, channel)}`;
    case 'NotificationDelivered':
    case 'NotificationFailed':
    case 'NotificationRetryScheduled': {
      const error = data.error as { message?: string } | undefined;
      const kind = data.kind && data.kind !== 'stage' ? ` (${text(data.kind)})` : '';
      return [`${text(data.medium)}${kind} to ${recipient(data, who, channel)}`, error?.message]
        .filter(Boolean)
        .join(' · ');
    }
    default:
      return '';
  }
}

export function IncidentTimeline({
  events,
  reached,
  who,
  channel,
}: {
  events: IncidentEvent[];
  reached: number;
  who: Who;
  channel: ChannelLabel;
}) {
  return (
    <ol class="timeline" data-testid="timeline">
      {events.map((event, index) => (
        <li key={event.id} class={index <= reached ? 'reached' : 'ahead'} data-event-type={event.type}>
          <time>{time(event.occurred_at)}</time> <strong>{event.type}</strong> {describeEvent(event, who, channel)}
        </li>
      ))}
    </ol>
  );
}
