/**
 * Groups (iam:read): each group's permissions and members by name; create, edit and delete groups
 * with permission checkboxes, and add or remove members picked by name (all iam:admin; a group with
 * members cannot be deleted, and the API's reason shows in the row).
 */
import { useState } from 'preact/hooks';
import type { GroupDetail } from '../api/types';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { ErrorNote } from '../components/ErrorNote';
import { GrantHolderEditor } from '../components/GrantHolderEditor';
import { GroupMembers } from '../components/GroupMembers';
import { GuardedButton } from '../components/GuardedButton';
import { usePeopleDirectory } from '../components/people-directory';
import { grantsInWords } from '../people-words';
import { useSession } from '../components/session-context';

type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; group: GroupDetail };

export function GroupsPage() {
  const { calls, can } = useSession();
  const directory = usePeopleDirectory();
  const { groups, users, named } = directory;
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const saved = () => (setEditing({ kind: 'none' }), directory.reload());

  return (
    <section>
      <h1>
        Groups
        {editing.kind === 'none' ? (
          <GuardedButton
            label="New group"
            kind="primary"
            permission="iam:admin"
            onClick={() => setEditing({ kind: 'new' })}
          />
        ) : null}
      </h1>
      {editing.kind !== 'none' ? (
        <GrantHolderEditor
          key={editing.kind === 'edit' ? editing.group.id : 'new'}
          what="group"
          holder={editing.kind === 'edit' ? editing.group : undefined}
          save={(draft) =>
            named(editing.kind === 'edit' ? calls.replaceGroup(editing.group.id, draft) : calls.createGroup(draft))
          }
          onSaved={saved}
          onCancel={() => setEditing({ kind: 'none' })}
        />
      ) : null}
      {directory.loading && groups.length === 0 ? <p class="loading">Loading groups…</p> : null}
      <ErrorNote error={directory.error} />
      {!directory.loading && groups.length === 0 && !directory.error ? (
        <p class="empty">
          No groups yet.{can('iam:admin') ? ' Create one to grant permissions to several people at once.' : ''}
        </p>
      ) : null}
      {groups.length > 0 ? (
        <table class="grid" data-testid="groups">
          <thead>
            <tr>
              <th>Name</th>
              <th>Permissions</th>
              <th>Members</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((group) => (
              <tr key={group.id}>
                <td data-label="Name">
                  {group.name}
                  {group.description ? <div class="muted">{group.description}</div> : null}
                </td>
                <td data-label="Permissions">{grantsInWords(group.permissions)}</td>
                <td data-label="Members">
                  <GroupMembers
                    group={group}
                    users={users}
                    userName={directory.userName}
                    named={named}
                    onChanged={directory.reload}
                  />
                </td>
                <td data-label="Actions" class="actions">
                  <GuardedButton
                    label="Edit"
                    ariaLabel={`Edit ${group.name}`}
                    permission="iam:admin"
                    onClick={() => setEditing({ kind: 'edit', group })}
                  />
                  {can('iam:admin') ? (
                    <ConfirmDelete
                      name={group.name}
                      permission="iam:admin"
                      remove={async () => (await named(calls.deleteGroup(group.id)), directory.reload())}
                    />
                  ) : (
                    <GuardedButton
                      label="Delete"
                      kind="danger"
                      ariaLabel={`Delete ${group.name}`}
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
