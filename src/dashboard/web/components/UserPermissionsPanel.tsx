/**
 * One user's effective permissions (GET /users/{id}/permissions) with, per permission, what decided
 * it (an override, which groups, which role, the tenant defaults, or nothing: denied), and the
 * user's overrides (allow or deny per permission) to change: saving PUTs the whole map (iam:admin)
 * and the effective set is read again, so the change shows at once.
 */
import { useEffect, useState } from 'preact/hooks';
import type { DecidingLevel, Permission, PermissionGrants, User } from '../api/types';
import { ActionButton } from './ActionButton';
import { ErrorNote } from './ErrorNote';
import { PERMISSION_LIST } from '../people-words';
import { useSession } from './session-context';
import { useLoad } from './use-load';

interface Props {
  user: User;
  /** A role's or group's name by id. */
  nameOf: (id: string) => string;
  named: <T>(call: Promise<T>) => Promise<T>;
  onClose: () => void;
}

function decidedBy(level: DecidingLevel, sources: string[], nameOf: Props['nameOf']): string {
  const names = sources.map(nameOf).join(', ');
  if (level === 'user_override') return 'this user’s override';
  if (level === 'group') return `group ${names}`;
  if (level === 'role') return `role ${names}`;
  if (level === 'tenant_default') return 'the tenant defaults';
  return 'nothing allows it';
}

export function UserPermissionsPanel({ user, nameOf, named, onClose }: Props) {
  const { calls, can } = useSession();
  const effective = useLoad(() => calls.userPermissions(user.id), [user.id]);
  const stored = useLoad(() => calls.userOverrides(user.id), [user.id]);
  const [overrides, setOverrides] = useState<PermissionGrants>({});
  useEffect(() => {
    if (stored.value) setOverrides(stored.value.permissions);
  }, [stored.value]);
  const admin = can('iam:admin');
  const set = (permission: Permission, grant: string) => {
    const next = { ...overrides };
    if (grant === 'allow' || grant === 'deny') next[permission] = grant;
    else delete next[permission];
    setOverrides(next);
  };
  const save = async () => {
    await named(calls.setUserOverrides(user.id, overrides));
    stored.reload();
    effective.reload();
  };

  return (
    <section class="card" aria-label={`Permissions of ${user.name}`} data-testid="user-permissions">
      <h2>
        Permissions of {user.name}
        {user.is_active ? '' : ' (deactivated: every token refused)'}
      </h2>
      <ErrorNote error={effective.error ?? stored.error} />
      {effective.value ? (
        <table class="grid">
          <thead>
            <tr>
              <th>Permission</th>
              <th>Effective</th>
              <th>Decided by</th>
              <th>Override</th>
            </tr>
          </thead>
          <tbody>
            {PERMISSION_LIST.map(({ permission, guards }) => {
              const decision = effective.value!.permissions[permission];
              return (
                <tr key={permission} data-permission={permission}>
                  <td data-label="Permission">
                    <code title={guards}>{permission}</code>
                  </td>
                  <td data-label="Effective" class={decision?.allowed ? 'result-success' : 'muted'}>
                    {decision?.allowed ? 'allowed' : 'denied'}
                  </td>
                  <td data-label="Decided by">
                    {decision ? decidedBy(decision.decided_by, decision.sources, nameOf) : '—'}
                  </td>
                  <td data-label="Override">
                    <select
                      aria-label={`Override ${permission}`}
                      value={overrides[permission] ?? ''}
                      disabled={!admin}
                      title={admin ? undefined : 'needs the permission iam:admin'}
                      onChange={(e) => set(permission, e.currentTarget.value)}
                    >
                      <option value="">none</option>
                      <option value="allow">allow</option>
                      <option value="deny">deny</option>
                    </select>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : (
        <p class="loading">Loading permissions…</p>
      )}
      <div class="form-actions">
        <ActionButton label="Save overrides" kind="primary" permission="iam:admin" action={save} />
        <button type="button" class="button plain" onClick={onClose}>
          Close
        </button>
      </div>
    </section>
  );
}
