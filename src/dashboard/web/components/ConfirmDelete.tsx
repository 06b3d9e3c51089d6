/** Delete in two steps (a console is used in a hurry): the API's refusal, e.g. a 409 naming who still uses it, shows beside. */
import { useState } from 'preact/hooks';
import type { Permission } from '../api/types';
import { ActionButton } from './ActionButton';
import { useSession } from './session-context';

export function ConfirmDelete({
  name,
  permission,
  remove,
}: {
  name: string;
  permission: Permission;
  remove: () => Promise<unknown>;
}) {
  const { can } = useSession();
  const [asking, setAsking] = useState(false);
  if (!can(permission)) return null;
  if (!asking)
    return (
      <button type="button" class="button danger" aria-label={`Delete ${name}`} onClick={() => setAsking(true)}>
        Delete
      </button>
    );
  return (
    <span class="confirm" role="group" aria-label={`Delete ${name}?`}>
      <ActionButton label={`Yes, delete ${name}`} kind="danger" permission={permission} action={remove} />
      <button type="button" class="button plain" onClick={() => setAsking(false)}>
        Keep
      </button>
    </span>
  );
}
