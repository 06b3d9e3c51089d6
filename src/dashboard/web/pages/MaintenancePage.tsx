/**
 * Maintenance windows (issue 30): every window of the tenant with its state now, active ones first,
 * what it silences (rules by name) and when; create, edit (If-Match), end now and delete for writers
 * (`alerts:write`). The rules come from the alert rules list, so the page names them.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { MaintenanceWindow } from '../api/types';
import { ErrorNote } from '../components/ErrorNote';
import { MaintenanceWindowEditor } from '../components/MaintenanceWindowEditor';
import { MaintenanceWindowRow } from '../components/MaintenanceWindowRow';
import { useSession } from '../components/session-context';
import { useLoad } from '../components/use-load';
import { windowOrder } from '../maintenance-words';

type Editing = { kind: 'new' } | { kind: 'edit'; windowId: string } | undefined;

export function MaintenancePage() {
  const { calls, can } = useSession();
  const loaded = useLoad(() => calls.maintenanceWindows(), []);
  const rules = useLoad(() => calls.alertRules(), []);
  const [windows, setWindows] = useState<MaintenanceWindow[]>([]);
  const [editing, setEditing] = useState<Editing>(undefined);
  const [outcome, setOutcome] = useState('');
  useEffect(() => setWindows(loaded.value ?? []), [loaded.value]);
  const ruleNames = useMemo(() => new Map((rules.value ?? []).map((rule) => [rule.id, rule.name])), [rules.value]);
  const sorted = useMemo(() => [...windows].sort(windowOrder), [windows]);
  const put = (window: MaintenanceWindow) =>
    setWindows((current) => [window, ...current.filter((w) => w.id !== window.id)]);
  const saved = (window: MaintenanceWindow) => {
    put(window);
    setOutcome(editing?.kind === 'new' ? `Created ${window.name}` : `Saved ${window.name}`);
    setEditing(undefined);
  };
  const ended = (window: MaintenanceWindow) => {
    put(window);
    setOutcome(`Ended ${window.name}: its rules page again`);
    if (editing?.kind === 'edit' && editing.windowId === window.id) setEditing(undefined);
  };
  const deleted = (windowId: string) => {
    const gone = windows.find((w) => w.id === windowId);
    setWindows((current) => current.filter((w) => w.id !== windowId));
    setOutcome(`Deleted ${gone?.name ?? 'the window'}`);
    if (editing?.kind === 'edit' && editing.windowId === windowId) setEditing(undefined);
  };
  return (
    <section>
      <h1>
        Maintenance windows{' '}
        {can('alerts:write') && editing?.kind !== 'new' ? (
          <button type="button" class="button primary" onClick={() => (setOutcome(''), setEditing({ kind: 'new' }))}>
            New window
          </button>
        ) : null}
      </h1>
      <p class="hint">
        While a window is active, the rules it matches are still evaluated but open no incident, and open incidents'
        escalations wait.
      </p>
      <p role="status" class="muted" data-testid="windows-outcome">
        {outcome}
      </p>
      {editing ? (
        <MaintenanceWindowEditor
          key={editing.kind === 'edit' ? editing.windowId : 'new'}
          windowId={editing.kind === 'edit' ? editing.windowId : undefined}
          rules={rules.value}
          onSaved={saved}
          onClose={() => setEditing(undefined)}
        />
      ) : null}
      <ErrorNote error={loaded.error ?? rules.error} />
      {loaded.value && windows.length === 0 ? <p class="empty">No maintenance windows yet.</p> : null}
      {sorted.length > 0 ? (
        <table class="grid" data-testid="maintenance-windows">
          <thead>
            <tr>
              <th>Window</th>
              <th>State</th>
              <th>Silences</th>
              <th>When</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {sorted.map((window) => (
              <MaintenanceWindowRow
                key={window.id}
                window={window}
                ruleNames={ruleNames}
                onEdit={(id) => (setOutcome(''), setEditing({ kind: 'edit', windowId: id }))}
                onEnded={ended}
                onDeleted={deleted}
              />
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
