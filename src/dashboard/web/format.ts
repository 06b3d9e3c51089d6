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

/** How long ago, as a person says it ("3 min ago"); the exact time goes in a tooltip beside it. */
export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

/** The time from one moment to a later one ("2 min"), or '—' before the later one happened. */
export const between = (from: string, to: string | null | undefined) =>
  to ? duration(Math.max(0, Date.parse(to) - Date.parse(from))) : '—';
