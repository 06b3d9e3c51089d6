/** Every schedule of the tenant: who is on call now, and the next 14 days. */
import { useMemo } from 'preact/hooks';
import { ErrorNote } from '../components/ErrorNote';
import { ONCALL_DAYS, ScheduleCard } from '../components/ScheduleCard';
import { useSession } from '../components/session-context';
import { useLoad } from '../components/use-load';

export function OncallPage() {
  const { calls } = useSession();
  const schedules = useLoad(() => calls.schedules(), []);
  const since = useMemo(() => new Date(), []);
  return (
    <section>
      <h1>
        On call <span class="muted">next {ONCALL_DAYS} days</span>
      </h1>
      <ErrorNote error={schedules.error} />
      {schedules.value?.length === 0 ? (
        <p class="empty">
          No schedules yet: make one on the <a href="#/schedules">Schedules</a> page.
        </p>
      ) : null}
      {schedules.value?.map((schedule) => (
        <ScheduleCard key={schedule.id} schedule={schedule} since={since} />
      ))}
    </section>
  );
}
