/** One schedule: who is on call now and until when, and the next days as a timeline. */
import type { Schedule } from '../api/types';
import { time } from '../format';
import { ErrorNote } from './ErrorNote';
import { OncallTimeline } from './OncallTimeline';
import { useSession } from './session-context';
import { useLoad } from './use-load';

export const ONCALL_DAYS = 14;

export function ScheduleCard({ schedule, since }: { schedule: Schedule; since: Date }) {
  const { calls } = useSession();
  const now = useLoad(() => calls.currentOncall(schedule.id), [schedule.id]);
  const range = useLoad(() => calls.oncallRange(schedule.id, since, ONCALL_DAYS), [schedule.id, since]);
  const person = now.value?.current_oncall;
  return (
    <article class="card" data-testid="schedule">
      <h2>
        {schedule.name} <span class="muted">{schedule.timezone}</span>
      </h2>
      <ErrorNote error={now.error ?? range.error} />
      {now.value ? (
        person ? (
          <p class="on-call-now">
            On call now: <strong>{person.name}</strong> <span class="muted">{person.email}</span>{' '}
            {person.on_call_until ? `until ${time(person.on_call_until)}` : 'with no handoff in the next 90 days'} (
            {person.source})
          </p>
        ) : (
          <p class="on-call-now empty">Nobody is on call now.</p>
        )
      ) : null}
      {range.value ? (
        <OncallTimeline
          segments={range.value.segments}
          since={since.getTime()}
          until={since.getTime() + ONCALL_DAYS * 86_400_000}
        />
      ) : null}
    </article>
  );
}
