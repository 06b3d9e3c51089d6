/**
 * A backtest drawn (geometry in backtest-chart.ts, no chart library): the metric's readings as a
 * line, the threshold dashed, would-be incidents shaded, gaps in history hatched. It scales to its
 * container's width (viewBox), so it fits a phone. The title and description name what is drawn;
 * the same facts are in words below the chart in RuleBacktestPanel.
 */
import type { RuleBacktest } from '../api/types';
import { backtestChart } from '../backtest-chart';
import { number } from '../format';

const WIDTH = 640;
const HEIGHT = 200;

export function RuleBacktestChart({ answer, description }: { answer: RuleBacktest; description: string }) {
  const since = Date.parse(answer.since);
  const until = Date.parse(answer.until);
  const geometry = backtestChart({
    since,
    until,
    width: WIDTH,
    height: HEIGHT,
    threshold: answer.rule.threshold,
    readings: (answer.readings ?? []).map((r) => ({ at: Date.parse(r.at), value: r.value })),
    incidents: answer.incidents.map((i) => ({
      start: Date.parse(i.started_at),
      end: i.ended_at === null ? null : Date.parse(i.ended_at),
    })),
    gaps: answer.gaps.map((g) => ({ from: Date.parse(g.from), to: Date.parse(g.to) })),
  });
  const { plot } = geometry;
  const day = until - since > 36 * 3_600_000;
  // A day's range starts and ends at the same time of day: its labels carry the date too.
  const label = (ms: number) =>
    day
      ? new Date(ms).toLocaleDateString()
      : new Date(ms).toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  return (
    <svg
      class="backtest-chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-labelledby="backtest-chart-title backtest-chart-desc"
      data-testid="backtest-chart"
    >
      <title id="backtest-chart-title">
        {answer.rule.metric} against the threshold {number(answer.rule.threshold, 2)}, {label(since)} to {label(until)}
      </title>
      <desc id="backtest-chart-desc">{description}</desc>
      <pattern id="backtest-gap-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <line x1="0" y1="0" x2="0" y2="6" class="gap-hatch" />
      </pattern>
      <rect x={plot.left} y={plot.top} width={plot.right - plot.left} height={plot.bottom - plot.top} class="plot" />
      {geometry.gaps.map((gap, i) => (
        <rect
          key={`g${i}`}
          class="gap"
          data-testid="backtest-gap"
          x={gap.x}
          y={plot.top}
          width={gap.width}
          height={plot.bottom - plot.top}
        />
      ))}
      {geometry.incidents.map((span, i) => (
        <rect
          key={`i${i}`}
          class="incident"
          data-testid="backtest-incident"
          x={span.x}
          y={plot.top}
          width={span.width}
          height={plot.bottom - plot.top}
        />
      ))}
      <path d={geometry.line} class="line" />
      <line
        x1={plot.left}
        x2={plot.right}
        y1={geometry.thresholdY}
        y2={geometry.thresholdY}
        class="threshold"
        data-testid="backtest-threshold"
      />
      <text x={plot.left - 4} y={plot.top + 8} class="axis" text-anchor="end">
        {number(geometry.high, 1)}
      </text>
      <text x={plot.left - 4} y={plot.bottom} class="axis" text-anchor="end">
        {number(geometry.low, 1)}
      </text>
      <text x={plot.left} y={HEIGHT - 4} class="axis">
        {label(since)}
      </text>
      <text x={plot.right} y={HEIGHT - 4} class="axis" text-anchor="end">
        {label(until)}
      </text>
    </svg>
  );
}
