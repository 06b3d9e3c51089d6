/**
 * Users (iam:read): name, email, role and groups by name, active, last login. Invite and edit
 * (iam:write; the API refuses granting more than the caller holds, and touching the owner, with a
 * reason shown here), deactivate and reactivate (iam:write), delete (iam:admin, confirmed in the row),
 * and per user the effective permissions with where each comes from, and its overrides (iam:admin).
 */
import { useState } from 'preact/hooks';
import type { User } from '../api/types';
import { ActionButton } from '../components/ActionButton';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ErrorNote } from '../components/ErrorNote';
import { GuardedButton } from '../components/GuardedButton';
import { usePeopleDirectory } from '../components/people-directory';
import { useSession } from '../components/session-context';
import { UserEditor } from '../components/UserEditor';
import { UserPermissionsPanel } from '../components/UserPermissionsPanel';
import { ago } from '../format';

type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; user: User };

export function UsersPage() {
  const { calls, can, me } = useSession();
  const directory = usePeopleDirectory();
  const { users, roles, groups, named } = directory;
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const [inspected, setInspected] = useState<string | undefined>(undefined);
  const inspectedUser = users.find((user) => user.id === inspected);
  // The permissions panel (below) is keyed by what decides them, so it reads them again after an edit.
  const saved = () => (setEditing({ kind: 'none' }), directory.reload());
  const nameOf = (id: string) =>
    groups.some((group) => group.id === id) ? directory.groupName(id) : directory.roleName(id);

  return (
    <section>
      <h1>
        Users
        {editing.kind === 'none' ? (
          <GuardedButton
            label="Invite user"
            kind="primary"
            permission="iam:write"
            onClick={() => setEditing({ kind: 'new' })}
          />
        ) : null}
      </h1>
      {editing.kind !== 'none' ? (
        <UserEditor
          key={editing.kind === 'edit' ? editing.user.id : 'new'}
          user={editing.kind === 'edit' ? editing.user : undefined}
          roles={roles}
          groups={groups}
          save={(draft) =>
            named(
              editing.kind === 'edit'
                ? calls.updateUser(editing.user.id, {
                    name: draft.name,
                    phone: draft.phone,
                    role_id: draft.role_id,
                    group_ids: draft.group_ids,
                    ...(draft.email !== editing.user.email ? { email: draft.email } : {}),
                  })
                : calls.inviteUser(draft),
            )
          }
          onSaved={saved}
          onCancel={() => setEditing({ kind: 'none' })}
        />
      ) : null}
      {inspectedUser ? (
        <UserPermissionsPanel
          key={`${inspectedUser.id}:${inspectedUser.role_id}:${inspectedUser.group_ids.join()}:${inspectedUser.is_active}`}
          user={inspectedUser}
          nameOf={nameOf}
          named={named}
          onClose={() => setInspected(undefined)}
        />
      ) : null}
      {directory.loading && users.length === 0 ? <p class="loading">Loading users…</p> : null}
      <ErrorNote error={directory.error} />
      {!directory.loading && users.length === 0 && !directory.error ? (
        <p class="empty">No users yet.{can('iam:write') ? ' Invite someone.' : ''}</p>
      ) : null}
      {users.length > 0 ? (
        <table class="grid" data-testid="users">
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Role</th>
              <th>Groups</th>
              <th>Active</th>
              <th>Last login</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <tr key={user.id}>
                <td data-label="Name">
                  {user.name}
                  {user.id === me.principal.user_id ? ' (you)' : ''}
                </td>
                <td data-label="Email">{user.email}</td>
                <td data-label="Role">{directory.roleName(user.role_id)}</td>
                <td data-label="Groups">
                  {user.group_ids.length > 0 ? user.group_ids.map(directory.groupName).join(', ') : '—'}
                </td>
                <td data-label="Active">
                  {user.is_active ? 'active' : 'deactivated'}
                  {user.invitation_status === 'failed' ? ' · invitation failed' : ''}
                </td>
                <td data-label="Last login">
                  {user.last_login ? (
                    <span title={new Date(user.last_login).toLocaleString()}>{ago(user.last_login)}</span>
                  ) : (
                    'never'
                  )}
                </td>
                <td data-label="Actions" class="actions">
                  <GuardedButton
                    label="Edit"
                    ariaLabel={`Edit ${user.name}`}
                    permission="iam:write"
                    onClick={() => setEditing({ kind: 'edit', user })}
                  />
                  <button
                    type="button"
                    class="button plain"
                    aria-label={`Permissions of ${user.name}`}
                    onClick={() => setInspected(user.id)}
                  >
                    Permissions
                  </button>
                  <ActionButton
                    label={user.is_active ? `Deactivate ${user.name}` : `Reactivate ${user.name}`}
                    permission="iam:write"
                    action={async () => (
                      await named(calls.updateUser(user.id, { is_active: !user.is_active })), directory.reload()
                    )}
                  />
                  {can('iam:admin') ? (
                    <ConfirmDelete
                      name={user.name}
                      permission="iam:admin"
                      remove={async () => (
                        await named(calls.deleteUser(user.id)), setInspected(undefined), directory.reload()
                      )}
                    />
                  ) : (
                    <GuardedButton
                      label="Delete"
                      kind="danger"
                      ariaLabel={`Delete ${user.name}`}
                      permission="iam:admin"
                      onClick={() => undefined}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
