/**
 * Roles (iam:read): the built-in roles (read-only) and the tenant's custom roles, each with its
 * permissions; create, edit and delete custom roles with permission checkboxes (iam:admin; a role
 * users still hold is refused with the API's reason). Below, the tenant's permission defaults.
 */
import { useState } from 'preact/hooks';
import type { Role } from '../api/types';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ErrorNote } from '../components/ErrorNote';
import { GrantHolderEditor } from '../components/GrantHolderEditor';
import { GuardedButton } from '../components/GuardedButton';
import { grantsInWords } from '../people-words';
import { useSession } from '../components/session-context';
import { TenantDefaultsCard } from '../components/TenantDefaultsCard';
import { useLoad } from '../components/use-load';

type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; role: Role };

export function RolesPage() {
  const { calls, can } = useSession();
  const loaded = useLoad(() => calls.roles(), []);
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const roles = loaded.value ?? [];
  const saved = () => (setEditing({ kind: 'none' }), loaded.reload());

  return (
    <section>
      <h1>
        Roles
        {editing.kind === 'none' ? (
          <GuardedButton
            label="New role"
            kind="primary"
            permission="iam:admin"
            onClick={() => setEditing({ kind: 'new' })}
          />
        ) : null}
      </h1>
      {editing.kind !== 'none' ? (
        <GrantHolderEditor
          key={editing.kind === 'edit' ? editing.role.id : 'new'}
          what="role"
          holder={editing.kind === 'edit' ? editing.role : undefined}
          save={(draft) =>
            editing.kind === 'edit' ? calls.replaceRole(editing.role.id, draft) : calls.createRole(draft)
          }
          onSaved={saved}
          onCancel={() => setEditing({ kind: 'none' })}
        />
      ) : null}
      {loaded.loading && !loaded.value ? <p class="loading">Loading roles…</p> : null}
      <ErrorNote error={loaded.error} />
      {roles.length > 0 ? (
        <table class="grid" data-testid="roles">
          <thead>
            <tr>
              <th>Name</th>
              <th>Kind</th>
              <th>Permissions</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {roles.map((role) => (
              <tr key={role.id}>
                <td data-label="Name">
                  {role.name}
                  {role.description ? <div class="muted">{role.description}</div> : null}
                </td>
                <td data-label="Kind" class="tight">
                  {role.built_in ? 'built-in' : 'custom'}
                </td>
                <td data-label="Permissions">{grantsInWords(role.permissions)}</td>
                <td data-label="Actions" class="actions">
                  {role.built_in ? (
                    <span class="muted">read only</span>
                  ) : (
                    <>
                      <GuardedButton
                        label="Edit"
                        ariaLabel={`Edit ${role.name}`}
                        permission="iam:admin"
                        onClick={() => setEditing({ kind: 'edit', role })}
                      />
                      {can('iam:admin') ? (
                        <ConfirmDelete
                          name={role.name}
                          permission="iam:admin"
                          remove={async () => (await calls.deleteRole(role.id), loaded.reload())}
                        />
                      ) : (
                        <GuardedButton
                          label="Delete"
                          kind="danger"
                          ariaLabel={`Delete ${role.name}`}
                          permission="iam:admin"
                          onClick={() => undefined}
                        />
                      )}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <TenantDefaultsCard />
    </section>
  );
}
