/**
 * What the rule being edited would see: the metric's value now, read by the API over the rule's
 * window and cluster exactly as the evaluator reads it (GET /api/v1/alert-metrics/reading;
 * nothing is recorded), against the threshold typed; and, for a saved rule, its recorded
 * evaluations drawn against the new threshold.
 */
import type { AlertMetric, Evaluation } from '../api/types';
import { CONDITION_SYMBOL, number } from '../format';
import { useSession } from './session-context';
import { Sparkline } from './Sparkline';
import { useLoad } from './use-load';

const holds = (value: number, condition: string, threshold: number) =>
  ({
    gt: value > threshold,
    gte: value >= threshold,
    lt: value < threshold,
    lte: value <= threshold,
    eq: value === threshold,
  })[condition] ?? false;

interface Props {
  metric: AlertMetric | undefined;
  condition: string;
  threshold: number | undefined;
  windowMinutes: number | undefined;
  clusterId: string;
  history: Evaluation[] | undefined;
}

export function MetricPreview({ metric, condition, threshold, windowMinutes, clusterId, history }: Props) {
  const { calls } = useSession();
  const window =
    windowMinutes !== undefined && Number.isInteger(windowMinutes) && windowMinutes >= 0 && windowMinutes <= 1440
      ? windowMinutes
      : undefined;
  const reading = useLoad(
    () =>
      metric && window !== undefined
        ? calls.metricReading(metric.id, window, clusterId || undefined)
        : Promise.resolve(undefined),
    [metric?.id, window, clusterId],
  );
  if (!metric)
    return (
      <p class="muted" data-testid="metric-preview">
        Pick a metric to see its value now.
      </p>
    );
  const value = reading.value?.value;
  const symbol = CONDITION_SYMBOL[condition] ?? condition;
  const verdict =
    value === undefined || threshold === undefined ? null : holds(value, condition, threshold) ? (
      <strong class="error-text" data-testid="preview-verdict">
        would breach: {number(value, 2)} {symbol} {number(threshold, 2)}
      </strong>
    ) : (
      <span data-testid="preview-verdict">
        within: not {number(value, 2)} {symbol} {number(threshold, 2)}
      </span>
    );
  return (
    <div class="metric-preview" data-testid="metric-preview" aria-live="polite">
      <p class="muted">
        {metric.description} ({metric.unit})
      </p>
      {reading.error ? (
        <p class="error">
          Could not read {metric.id}: {reading.error}
        </p>
      ) : null}
      {reading.value ? (
        <p data-testid="preview-reading">
          Now:{' '}
          <strong>
            {number(reading.value.value, 2)} {metric.unit}
          </strong>
          <span class="muted">
            {' '}
            — read over the last {reading.value.window_minutes} min
            {reading.value.cluster_id ? ` on ${reading.value.cluster_id}` : ' across the environment'} at{' '}
            {new Date(reading.value.read_at).toLocaleTimeString()}
          </span>
          <br />
          {verdict}
        </p>
      ) : reading.loading && window !== undefined ? (
        <p class="loading">Reading {metric.id}…</p>
      ) : null}
      {history && history.length > 0 ? (
        <p>
          This rule's last {history.length} recorded evaluations against the new threshold:{' '}
          <Sparkline
            label={`recorded readings of ${metric.id} against the threshold`}
            threshold={threshold}
            points={history.map((entry) => ({
              at: Date.parse(entry.at),
              value: entry.value,
              marked: entry.value !== null && threshold !== undefined && holds(entry.value, condition, threshold),
            }))}
          />
        </p>
      ) : null}
    </div>
  );
}
