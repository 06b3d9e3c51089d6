/** Every event of the incident's stream, oldest first; the one the slider has reached is marked. */
import type { IncidentEvent } from '../api/types';
import { time } from '../format';

function summary(event: IncidentEvent): string {
  const data = event.data;
  switch (event.type) {
    case 'IncidentTriggered': return `value ${String(data.value ?? data.currentValue ?? '')}`;
    case 'IncidentResolved': return `reason ${String(data.reason ?? '')}${data.note ? `: ${String(data.note)}` : ''}`;
    case 'IncidentNoteAdded': return String(data.text ?? '');
    case 'EscalationStageFired': return `stage ${String(data.stage_order ?? data.stageOrder ?? '')}`;
    case 'NotificationDelivered':
    case 'NotificationFailed': return [data.medium, data.recipient, data.error].filter(Boolean).map(String).join(' · ');
    default: return '';
  }
}

export function IncidentTimeline({ events, until }: { events: IncidentEvent[]; until: number }) {
  return (
    <ol class="timeline" data-testid="timeline">
      {events.map((event) => (
        <li key={event.id} class={Date.parse(event.occurred_at) <= until ? 'reached' : 'ahead'}>
          <time>{time(event.occurred_at)}</time> <strong>{event.type}</strong> <span class="muted">{event.actor}</span> {summary(event)}
        </li>
      ))}
    </ol>
  );
}
