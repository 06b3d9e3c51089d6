/**
 * Reads the Prometheus text exposition format (what GET /metrics answers) into samples, and sums
 * them by name and labels: enough for tests that compare counters across instances and moments.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line.trim());
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL))
      labels[name!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    const raw = match[3]!;
    const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw);
    samples.push({ name: match[1]!, labels, value });
  }
  return samples;
}

export interface Metrics {
  samples: Sample[];
  /** Whether any sample of this name was exported. */
  has(name: string): boolean;
  /** The sum of the samples of `name` whose labels include `labels` (0 when there are none). */
  sum(name: string, labels?: Record<string, string>): number;
}

export function metricsOf(text: string): Metrics {
  const samples = parsePrometheusText(text);
  const matching = (name: string, labels: Record<string, string>) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return {
    samples,
    has: (name) => samples.some((s) => s.name === name),
    sum: (name, labels = {}) => matching(name, labels).reduce((total, s) => total + s.value, 0),
  };
}
