import type { Incident } from '../api/types';

export function SeverityBadge({ severity }: { severity: Incident['severity'] }) {
  return <span class={`badge severity-${severity}`}>{severity}</span>;
}
