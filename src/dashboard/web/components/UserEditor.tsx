/**
 * Invites a user (POST /users: email, name, role and groups) or edits one (PUT: name, email, role,
 * groups). The role and groups are picked by name. The API's validation errors show beside their
 * fields (an invalid email, an address already taken); its refusal (e.g. assigning more than the
 * caller holds needs iam:admin) above the form, with roles and groups said by name.
 */
import { useState } from 'preact/hooks';
import type { GroupDetail, Role, User, UserDraft } from '../api/types';
import { errorsOf, FieldError, FormProblem } from './FieldError';
import { PagingField, PagingTextField } from './PagingTextField';

const CLAIMED = /^\/(email|name|phone|role_id|group_ids)(\/|$)/;

interface Props {
  user?: User;
  roles: Role[];
  groups: GroupDetail[];
  /** Sends the draft (the page wraps the call so refusals read with names). */
  save: (draft: UserDraft) => Promise<unknown>;
  onSaved: () => void;
  onCancel: () => void;
}

export function UserEditor({ user, roles, groups, save, onSaved, onCancel }: Props) {
  const [email, setEmail] = useState(user?.email ?? '');
  const [name, setName] = useState(user?.name ?? '');
  const [phone, setPhone] = useState(user?.phone ?? '');
  const [roleId, setRoleId] = useState(user ? (user.role_id ?? '') : 'viewer');
  const [groupIds, setGroupIds] = useState<string[]>(user?.group_ids ?? []);
  const [failure, setFailure] = useState<Error | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const errors = errorsOf(failure);
  const title = user ? `Edit user ${user.name}` : 'Invite a user';
  const toggle = (id: string, on: boolean) =>
    setGroupIds((current) => (on ? [...current, id] : current.filter((other) => other !== id)));

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setFailure(undefined);
    try {
      await save({
        email,
        name,
        phone: phone.trim() === '' ? null : phone.trim(),
        role_id: roleId === '' ? null : roleId,
        group_ids: groupIds,
      });
      onSaved();
    } catch (error) {
      setFailure(error as Error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form class="editor card" onSubmit={(e) => void submit(e)} noValidate aria-label={title}>
      <h2>{title}</h2>
      <FormProblem failure={failure} claimed={(path) => CLAIMED.test(path)} />
      <PagingTextField
        label="Email"
        path="/email"
        value={email}
        onInput={setEmail}
        errors={errors}
        hint={user ? undefined : 'the invitation goes to this address'}
      />
      <PagingTextField label="Name" path="/name" value={name} onInput={setName} errors={errors} />
      <PagingTextField
        label="Phone"
        path="/phone"
        value={phone}
        onInput={setPhone}
        errors={errors}
        hint="for sms pages, e.g. +447700900123; empty for none"
      />
      <PagingField
        label="Role"
        path="/role_id"
        errors={errors}
        control={(props) => (
          <select {...props} value={roleId} onChange={(e) => setRoleId(e.currentTarget.value)}>
            <option value="">no role (the tenant defaults apply)</option>
            {roles.map((role) => (
              <option key={role.id} value={role.id}>
                {role.name}
                {role.built_in ? ' (built-in)' : ''}
              </option>
            ))}
          </select>
        )}
      />
      <fieldset class="field">
        <legend>Groups</legend>
        {groups.length === 0 ? <span class="hint">No groups yet (Groups page).</span> : null}
        {groups.map((group) => (
          <label key={group.id} class="inline">
            <input
              type="checkbox"
              checked={groupIds.includes(group.id)}
              onChange={(e) => toggle(group.id, e.currentTarget.checked)}
            />
            {group.name}
          </label>
        ))}
        <FieldError errors={errors} path="/group_ids" />
      </fieldset>
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={saving}>
          {user ? 'Save user' : 'Send invitation'}
        </button>
        <button type="button" class="button plain" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
