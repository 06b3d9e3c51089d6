/**
 * Who is on call over the next days as one SVG band: a block per stretch (overrides hatched),
 * coloured per person, with a tick at each midnight (browser's time zone), the person's name
 * where the block is wide enough, and a legend of everyone in the band below it.
 *
 * The band is drawn at the width it is shown at (measured with a ResizeObserver), not scaled from
 * a fixed drawing: a 980-unit drawing squeezed onto a 360 px phone made 11 px labels 3 px tall.
 * Day labels are thinned out so that they do not overlap on a narrow screen.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { OncallSegment } from '../api/types';

const DEFAULT_WIDTH = 980;
const HEIGHT = 50;
const BAND_Y = 17;
const BAND_H = 28;
/** About the width of "Sep 30" at the tick labels' 11 px, with a gap. */
const DAY_LABEL_W = 48;
/** Roughly the width of a character of the 12 px segment labels. */
const CHAR_W = 7;
/** Each at least 4.5:1 against the white labels drawn on it. */
const PALETTE = ['#3b6a9a', '#a34f00', '#2f7a2a', '#8a4f80', '#b3363a', '#22707a', '#7a6200', '#6b4e3d'];

function colourOf(userId: string, order: string[]): string {
  if (!order.includes(userId)) order.push(userId);
  return PALETTE[order.indexOf(userId) % PALETTE.length]!;
}

/** The element's width in CSS pixels, following resizes. */
function useWidth<E extends Element>(): [{ current: E | null }, number] {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const measured = Math.round(element.getBoundingClientRect().width);
      if (measured > 0) setWidth(measured);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

export function OncallTimeline({
  segments,
  since,
  until,
}: {
  segments: OncallSegment[];
  since: number;
  until: number;
}) {
  const [ref, width] = useWidth<SVGSVGElement>();
  const x = (t: number) => ((Math.min(Math.max(t, since), until) - since) / (until - since)) * width;
  const order: string[] = [];
  const people = new Map<string, { name: string; colour: string }>();
  for (const segment of segments)
    people.set(segment.user_id, { name: segment.name, colour: colourOf(segment.user_id, order) });
  const midnights: number[] = [];
  const day = new Date(since);
  day.setHours(24, 0, 0, 0);
  for (let t = day.getTime(); t < until; day.setDate(day.getDate() + 1), t = day.getTime()) midnights.push(t);
  const dayWidth = (width * 86_400_000) / (until - since);
  const labelEvery = Math.max(1, Math.ceil(DAY_LABEL_W / dayWidth));
  return (
    <div class="oncall-band">
      <svg
        ref={ref}
        class="oncall-timeline"
        viewBox={`0 0 ${width} ${HEIGHT}`}
        height={HEIGHT}
        role="img"
        aria-label="on call over the next days"
      >
        {midnights.map((t, i) => (
          <g key={t}>
            <line x1={x(t)} x2={x(t)} y1={13} y2={HEIGHT} class="tick" />
            {i % labelEvery === 0 && x(t) + DAY_LABEL_W - 8 <= width ? (
              <text x={x(t) + 2} y={11} class="tick-label">
                {new Date(t).toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}
              </text>
            ) : null}
          </g>
        ))}
        {segments.map((segment) => {
          const start = x(Date.parse(segment.start));
          const blockWidth = Math.max(x(Date.parse(segment.end)) - start, 1);
          return (
            <g key={`${segment.user_id}-${segment.start}`}>
              <rect
                x={start}
                y={BAND_Y}
                width={blockWidth}
                height={BAND_H}
                fill={people.get(segment.user_id)!.colour}
                class={`segment ${segment.source}`}
              >
                <title>{`${segment.name} (${segment.source}) ${new Date(segment.start).toLocaleString()} → ${new Date(segment.end).toLocaleString()}`}</title>
              </rect>
              {blockWidth > segment.name.length * CHAR_W + 8 ? (
                <text x={start + 4} y={BAND_Y + 19} class="segment-label">
                  {segment.name}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      {people.size > 0 ? (
        <ul class="oncall-legend" aria-label="who is in the band">
          {[...people.entries()].map(([userId, person]) => (
            <li key={userId}>
              <svg class="swatch" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
                <rect width="12" height="12" rx="2" fill={person.colour} />
              </svg>
              {person.name}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
