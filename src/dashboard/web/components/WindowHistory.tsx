/** Who created, changed, ended or deleted a maintenance window, and when (its events; `audit:read`), loaded when opened. */
import { useState } from 'preact/hooks';
import { time } from '../format';
import { historyWords } from '../maintenance-words';
import { usePeople } from './use-people';
import { useSession } from './session-context';
import { useLoad } from './use-load';

export function WindowHistory({ windowId, name, updatedAt }: { windowId: string; name: string; updatedAt: string }) {
  const { calls, can } = useSession();
  const { who } = usePeople();
  const [open, setOpen] = useState(false);
  const events = useLoad(
    () => (open ? calls.maintenanceWindowEvents(windowId) : Promise.resolve(undefined)),
    [windowId, open, updatedAt],
  );
  if (!can('audit:read')) return null;
  return (
    <details class="window-history" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary aria-label={`History of ${name}`}>History</summary>
      {events.error ? (
        <p class="error" role="alert">
          {events.error}
        </p>
      ) : null}
      {events.value ? (
        <ol class="plain-list" data-testid="window-history">
          {events.value.map((entry) => (
            <li key={entry.id}>{historyWords(entry, time, who)}</li>
          ))}
        </ol>
      ) : open && !events.error ? (
        <p class="muted">Loading…</p>
      ) : null}
    </details>
  );
}
