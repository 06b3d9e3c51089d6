/** How times and numbers read on the pages (the browser's locale and time zone). */

export const time = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

export const clock = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleTimeString() : '—');

export const number = (value: number | null | undefined, digits = 0) =>
  value === null || value === undefined ? '—' : value.toLocaleString(undefined, { maximumFractionDigits: digits });

export function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
}

export const CONDITION_SYMBOL: Record<string, string> = { gt: '>', gte: '≥', lt: '<', lte: '≤', eq: '=' };
