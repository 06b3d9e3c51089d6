/**
 * A series over time as a small SVG line, with an optional threshold line and dots where a
 * point is marked (e.g. the condition held). Points without a value (failed reads) are gaps.
 */

export interface Point {
  at: number;
  value: number | null;
  marked?: boolean;
}

export function Sparkline({
  points,
  threshold,
  width = 160,
  height = 32,
  label,
}: {
  points: Point[];
  threshold?: number;
  width?: number;
  height?: number;
  label: string;
}) {
  const values = points.flatMap((point) => (point.value === null ? [] : [point.value]));
  if (values.length === 0) return <span class="muted sparkline-empty">no readings</span>;
  const times = points.map((point) => point.at);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const all = threshold === undefined ? values : [...values, threshold];
  const [lo, hi] = [Math.min(...all), Math.max(...all)];
  const x = (t: number) => (t1 === t0 ? width / 2 : ((t - t0) / (t1 - t0)) * (width - 4) + 2);
  const y = (v: number) => (hi === lo ? height / 2 : height - 3 - ((v - lo) / (hi - lo)) * (height - 6));
  let path = '';
  let pen = false;
  for (const point of [...points].sort((a, b) => a.at - b.at)) {
    if (point.value === null) {
      pen = false;
      continue;
    }
    path += `${pen ? 'L' : 'M'}${x(point.at).toFixed(1)} ${y(point.value).toFixed(1)} `;
    pen = true;
  }
  return (
    <svg
      class="sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
    >
      {threshold !== undefined ? (
        <line x1={0} x2={width} y1={y(threshold)} y2={y(threshold)} class="threshold" />
      ) : null}
      <path d={path} class="line" />
      {points
        .filter((point) => point.marked && point.value !== null)
        .map((point) => (
          <circle key={point.at} cx={x(point.at)} cy={y(point.value!)} r={1.8} class="mark" />
        ))}
    </svg>
  );
}
