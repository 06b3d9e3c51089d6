/** Horizontal bars, one per labelled value, scaled to `max` (or the largest value). */
import { number } from '../format';

export interface Bar {
  label: string;
  value: number;
}

const ROW = 20;
const LABEL_W = 330;
const WIDTH = 820;
const MAX_LABEL = 50;

const clipped = (label: string) => (label.length > MAX_LABEL ? `…${label.slice(-(MAX_LABEL - 1))}` : label);

export function BarChart({ bars, max, unit, title }: { bars: Bar[]; max?: number; unit: string; title: string }) {
  const top = max ?? Math.max(1, ...bars.map((bar) => bar.value));
  const scale = (value: number) => (Math.max(0, value) / top) * (WIDTH - LABEL_W - 90);
  return (
    <svg class="bar-chart" viewBox={`0 0 ${WIDTH} ${bars.length * ROW + 4}`} role="img" aria-label={title}>
      {bars.map((bar, i) => (
        <g key={bar.label} transform={`translate(0 ${i * ROW + 2})`}>
          <text x={LABEL_W - 6} y={14} class="bar-label" text-anchor="end">
            {clipped(bar.label)}
            <title>{bar.label}</title>
          </text>
          <rect x={LABEL_W} y={3} width={scale(top)} height={ROW - 6} class="bar-track" />
          <rect x={LABEL_W} y={3} width={scale(bar.value)} height={ROW - 6} class="bar" />
          <text x={LABEL_W + scale(bar.value) + 6} y={14} class="bar-value">
            {number(bar.value, 1)} {unit}
          </text>
        </g>
      ))}
    </svg>
  );
}
