/**
 * The rule backtest chart's geometry, pure (components/RuleBacktestChart.tsx draws it): the metric's
 * readings as a line, the threshold as a horizontal line, each would-be incident as a shaded span
 * and each gap in history as a hatched span, all in one viewBox scaled to the range. A month at one
 * minute is 44,641 readings: they are folded into at most one column per unit of width, each drawn
 * as its lowest and highest reading, so a spike stays visible and the path stays small. A column
 * with no reading lifts the pen (a gap is never bridged by the line).
 */

export interface ChartInput {
  since: number;
  until: number;
  readings: readonly { at: number; value: number | null }[];
  threshold: number;
  incidents: readonly { start: number; end: number | null }[];
  gaps: readonly { from: number; to: number }[];
  width: number;
  height: number;
}

export interface Span {
  x: number;
  width: number;
}

export interface ChartGeometry {
  /** The plot area inside the axis labels. */
  plot: { left: number; top: number; right: number; bottom: number };
  /** SVG path data of the readings ('' when there is none). */
  line: string;
  thresholdY: number;
  incidents: Span[];
  gaps: Span[];
  /** The value range drawn (the readings and the threshold, padded). */
  low: number;
  high: number;
}

/** Room for the value labels on the left and the time labels below. */
export const MARGIN = { left: 48, right: 6, top: 8, bottom: 20 };
/** A span narrower than this would vanish: it is widened around its start. */
export const MIN_SPAN = 2;

const round = (n: number) => Math.round(n * 10) / 10;

export function backtestChart(input: ChartInput): ChartGeometry {
  const plot = {
    left: MARGIN.left,
    top: MARGIN.top,
    right: input.width - MARGIN.right,
    bottom: input.height - MARGIN.bottom,
  };
  const values = input.readings.flatMap((r) => (r.value === null ? [] : [r.value]));
  let low = Math.min(input.threshold, ...values);
  let high = Math.max(input.threshold, ...values);
  if (high === low) {
    const pad = Math.abs(high) > 0 ? Math.abs(high) * 0.1 : 1;
    low -= pad;
    high += pad;
  } else {
    const pad = (high - low) * 0.05;
    low -= pad;
    high += pad;
  }
  const span = Math.max(1, input.until - input.since);
  const x = (at: number) =>
    plot.left + ((Math.min(Math.max(at, input.since), input.until) - input.since) / span) * (plot.right - plot.left);
  const y = (value: number) => plot.bottom - ((value - low) / (high - low)) * (plot.bottom - plot.top);

  // One column per unit of plot width: its lowest and highest reading, in time order.
  const columns = Math.max(1, Math.floor(plot.right - plot.left));
  const cells: ({ lo: number; hi: number; loAt: number; hiAt: number } | null)[] = new Array(columns).fill(null);
  const seen: boolean[] = new Array(columns).fill(false);
  for (const reading of input.readings) {
    const column = Math.min(columns - 1, Math.max(0, Math.floor(((reading.at - input.since) / span) * columns)));
    seen[column] = true;
    if (reading.value === null) continue;
    const cell = cells[column];
    if (!cell) cells[column] = { lo: reading.value, hi: reading.value, loAt: reading.at, hiAt: reading.at };
    else {
      if (reading.value < cell.lo) Object.assign(cell, { lo: reading.value, loAt: reading.at });
      if (reading.value > cell.hi) Object.assign(cell, { hi: reading.value, hiAt: reading.at });
    }
  }
  let line = '';
  let pen = false;
  cells.forEach((cell, column) => {
    if (!cell) {
      // An empty column between readings (a coarse step) keeps the pen down; one that had only gaps lifts it.
      if (seen[column]) pen = false;
      return;
    }
    const points =
      cell.loAt === cell.hiAt
        ? [[cell.loAt, cell.lo]]
        : cell.loAt < cell.hiAt
          ? [
              [cell.loAt, cell.lo],
              [cell.hiAt, cell.hi],
            ]
          : [
              [cell.hiAt, cell.hi],
              [cell.loAt, cell.lo],
            ];
    for (const [at, value] of points) {
      line += `${pen ? 'L' : 'M'}${round(x(at!))} ${round(y(value!))} `;
      pen = true;
    }
  });

  const spanOf = (from: number, to: number): Span => {
    const x0 = x(from);
    const width = Math.max(MIN_SPAN, x(to) - x0);
    return { x: round(Math.min(x0, plot.right - width)), width: round(width) };
  };
  return {
    plot,
    line: line.trim(),
    thresholdY: round(y(input.threshold)),
    incidents: input.incidents.map((incident) => spanOf(incident.start, incident.end ?? input.until)),
    gaps: input.gaps.map((gap) => spanOf(gap.from, gap.to)),
    low,
    high,
  };
}
