/**
 * A button that opens something (an editor, a panel) rather than calling the API: disabled, with the
 * missing permission as its tooltip, when the principal lacks it (as ActionButton does for actions).
 */
import { useSession } from './session-context';
import type { Permission } from '../api/types';

interface Props {
  label: string;
  permission: Permission;
  onClick: () => void;
  kind?: 'primary' | 'danger' | 'plain';
  /** The accessible name when the label alone is ambiguous in a row ("Edit Ada"). */
  ariaLabel?: string;
}

export function GuardedButton({ label, permission, onClick, kind = 'plain', ariaLabel }: Props) {
  const { can } = useSession();
  const allowed = can(permission);
  return (
    <button
      type="button"
      class={`button ${kind}`}
      aria-label={ariaLabel}
      disabled={!allowed}
      title={allowed ? undefined : `needs the permission ${permission}`}
      onClick={onClick}
    >
      {label}
    </button>
  );
}
