/**
 * One maintenance window: its state now (active now, upcoming with its next start, ended), name and
 * reason, what it silences with rule names, and when. Writers can edit it (until it is ended), end
 * it now, and delete it after a confirmation; the API's answer is said in the row.
 */
import type { MaintenanceWindow } from '../api/types';
import { time } from '../format';
import { matchWords, stateParts, whenWords, windowState } from '../maintenance-words';
import { ActionButton } from './ActionButton';
import { ConfirmDelete } from './ConfirmDelete';
import { useSession } from './session-context';
import { WindowHistory } from './WindowHistory';

interface Props {
  window: MaintenanceWindow;
  ruleNames: ReadonlyMap<string, string>;
  onEdit: (windowId: string) => void;
  onEnded: (window: MaintenanceWindow) => void;
  onDeleted: (windowId: string) => void;
}

export function MaintenanceWindowRow({ window, ruleNames, onEdit, onEnded, onDeleted }: Props) {
  const { calls, can } = useSession();
  const state = windowState(window);
  const writer = can('alerts:write');
  const [label, detail] = stateParts(state, time);
  return (
    <tr data-window-id={window.id} data-state={state.kind}>
      <td data-label="Window">
        <strong>{window.name}</strong>
        <div class="muted">{window.reason}</div>
        <WindowHistory windowId={window.id} name={window.name} updatedAt={window.ended_at ?? window.updated_at} />
      </td>
      <td data-label="State" data-testid="window-state">
        <span class={`badge window-${state.kind}`}>{label}</span>
        {detail ? <div class="muted">{detail}</div> : null}
      </td>
      <td data-label="Silences" data-testid="window-matches">
        {matchWords(window.matcher, ruleNames)}
      </td>
      <td data-label="When" data-testid="window-when">
        {whenWords(window, time)}
      </td>
      <td>
        {writer && state.kind !== 'ended' ? (
          <>
            <button type="button" class="button" aria-label={`Edit ${window.name}`} onClick={() => onEdit(window.id)}>
              Edit
            </button>
            <ActionButton
              label={`End ${window.name} now`}
              permission="alerts:write"
              action={async () => onEnded(await calls.endMaintenanceWindow(window.id))}
            />
          </>
        ) : null}
        <ConfirmDelete
          name={window.name}
          permission="alerts:write"
          remove={async () => {
            await calls.deleteMaintenanceWindow(window.id);
            onDeleted(window.id);
          }}
        />
      </td>
    </tr>
  );
}
