/**
 * A button that runs an API action: disabled while it runs, the API's refusal shown beside it,
 * and disabled with the reason when the principal lacks the permission (from /api/v1/me).
 */
import { useState } from 'preact/hooks';
import type { Permission } from '../api/types';
import { useSession } from './session-context';

interface Props {
  label: string;
  permission: Permission;
  action: () => Promise<unknown>;
  kind?: 'primary' | 'danger' | 'plain';
  disabled?: boolean;
}

export function ActionButton({ label, permission, action, kind = 'plain', disabled = false }: Props) {
  const { can } = useSession();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const allowed = can(permission);
  const run = async () => {
    setRunning(true);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setRunning(false);
    }
  };
  return (
    <span class="action">
      <button
        type="button"
        class={`button ${kind}`}
        disabled={!allowed || running || disabled}
        title={allowed ? undefined : `needs the permission ${permission}`}
        onClick={() => void run()}
      >
        {label}
      </button>
      {error ? (
        <span class="error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}
