/**
 * Creates or replaces a custom role or a group: name, description and its permissions as
 * checkboxes (GrantChecks). The API's validation errors show beside the fields they name; a
 * refusal (e.g. a 409 for a name already taken) above the form.
 */
import { useState } from 'preact/hooks';
import type { GrantHolderDraft, PermissionGrants } from '../api/types';
import { errorsOf, FormProblem } from './FieldError';
import { GrantChecks } from './GrantChecks';
import { PagingTextField } from './PagingTextField';

const CLAIMED = /^\/(name|description|permissions\/[^/]+)(\/|$)/;

interface Props {
  /** "role" or "group", for the headings and buttons. */
  what: 'role' | 'group';
  holder?: { name: string; description: string | null; permissions: PermissionGrants };
  save: (draft: GrantHolderDraft) => Promise<unknown>;
  onSaved: () => void;
  onCancel: () => void;
}

export function GrantHolderEditor({ what, holder, save, onSaved, onCancel }: Props) {
  const [name, setName] = useState(holder?.name ?? '');
  const [description, setDescription] = useState(holder?.description ?? '');
  const [permissions, setPermissions] = useState<PermissionGrants>(holder?.permissions ?? {});
  const [failure, setFailure] = useState<Error | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const errors = errorsOf(failure);
  const title = holder ? `Edit ${what} ${holder.name}` : `New ${what}`;

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setFailure(undefined);
    try {
      await save({ name, description, permissions });
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
      <PagingTextField label="Name" path="/name" value={name} onInput={setName} errors={errors} />
      <PagingTextField
        label="Description"
        path="/description"
        value={description}
        onInput={setDescription}
        errors={errors}
        multiline
      />
      <GrantChecks
        legend="Permissions (neither box: left to the next level)"
        grants={permissions}
        onChange={setPermissions}
        errors={errors}
      />
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={saving}>
          {holder ? `Save ${what}` : `Create ${what}`}
        </button>
        <button type="button" class="button plain" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
