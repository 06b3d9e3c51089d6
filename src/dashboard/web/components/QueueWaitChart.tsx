/**
 * Queue waits over time. None of the six health views carries a wait history, but every alert
 * rule on queue_time_seconds records the reading of each evaluation: the chart draws those
 * readings (one line per rule, with its threshold). Without such a rule there is nothing recorded
 * to draw, and the chart says so.
 */
import { number } from '../format';
import { useSession } from './session-context';
import { ErrorNote } from './ErrorNote';
import { Sparkline } from './Sparkline';
import { useLoad } from './use-load';

function range(values: (number | null)[]): string {
  const read = values.filter((value): value is number => value !== null);
  if (read.length === 0) return 'no readings yet';
  return `${read.length} readings from ${number(Math.min(...read), 1)} s to ${number(Math.max(...read), 1)} s, latest ${number(read[0], 1)} s`;
}

export function QueueWaitChart() {
  const { calls, can } = useSession();
  const series = useLoad(async () => {
    const rules = await calls.alertRules('queue_time_seconds');
    return Promise.all(
      rules.slice(0, 4).map(async (rule) => ({ rule, history: await calls.ruleHistory(rule.id, 120) })),
    );
  }, []);
  if (!can('alerts:read'))
    return <p class="muted">Queue waits come from alert-rule evaluations, which need the permission alerts:read.</p>;
  return (
    <div class="queue-waits">
      <ErrorNote error={series.error} />
      {series.value?.length === 0 ? (
        <p class="empty">
          No alert rule watches queue_time_seconds, so no queue waits are recorded; create one to chart them.
        </p>
      ) : null}
      {series.value?.map(({ rule, history }) => (
        <figure key={rule.id}>
          <Sparkline
            width={760}
            height={120}
            threshold={rule.threshold}
            label={`queue wait readings of ${rule.name}`}
            points={history.map((entry) => ({
              at: Date.parse(entry.at),
              value: entry.value,
              marked: entry.condition_met === true,
            }))}
          />
          <figcaption>
            {rule.name}: longest WLM queue wait per evaluation{rule.cluster_id ? ` on ${rule.cluster_id}` : ''},{' '}
            {range(history.map((entry) => entry.value))}; the dashed line is the threshold ({rule.threshold} s), dots
            held the condition.
          </figcaption>
        </figure>
      ))}
    </div>
  );
}
