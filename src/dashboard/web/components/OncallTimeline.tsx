/**
 * Who is on call over the next days as one SVG band: a block per stretch (overrides hatched),
 * coloured per person, with a tick at each midnight (browser's time zone) and the person's name
 * where the block is wide enough.
 */
import type { OncallSegment } from '../api/types';

const WIDTH = 980;
const HEIGHT = 46;
const BAND_Y = 14;
const BAND_H = 26;
const PALETTE = ['#4c78a8', '#f58518', '#54a24b', '#b279a2', '#e45756', '#72b7b2', '#eeca3b', '#9d755d'];

function colourOf(userId: string, order: string[]): string {
  if (!order.includes(userId)) order.push(userId);
  return PALETTE[order.indexOf(userId) % PALETTE.length]!;
}

export function OncallTimeline({ segments, since, until }: { segments: OncallSegment[]; since: number; until: number }) {
  const x = (t: number) => ((Math.min(Math.max(t, since), until) - since) / (until - since)) * WIDTH;
  const order: string[] = [];
  const midnights: number[] = [];
  const day = new Date(since);
  day.setHours(24, 0, 0, 0);
  for (let t = day.getTime(); t < until; day.setDate(day.getDate() + 1), t = day.getTime()) midnights.push(t);
  return (
    <svg class="oncall-timeline" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="on call over the next days">
      {midnights.map((t) => (
        <g key={t}>
          <line x1={x(t)} x2={x(t)} y1={10} y2={HEIGHT} class="tick" />
          <text x={x(t) + 2} y={9} class="tick-label">{new Date(t).toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}</text>
        </g>
      ))}
      {segments.map((segment) => {
        const start = x(Date.parse(segment.start));
        const width = Math.max(x(Date.parse(segment.end)) - start, 1);
        return (
          <g key={`${segment.user_id}-${segment.start}`}>
            <rect x={start} y={BAND_Y} width={width} height={BAND_H} fill={colourOf(segment.user_id, order)} class={`segment ${segment.source}`}>
              <title>{`${segment.name} (${segment.source}) ${new Date(segment.start).toLocaleString()} → ${new Date(segment.end).toLocaleString()}`}</title>
            </rect>
            {width > 60 ? <text x={start + 4} y={BAND_Y + 17} class="segment-label">{segment.name}</text> : null}
          </g>
        );
      })}
    </svg>
  );
}
