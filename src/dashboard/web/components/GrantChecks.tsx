/**
 * A permission map as checkboxes: per permission "allow" and "deny" (checking one clears the other;
 * neither leaves it open for the next level: groups, then the role, then the tenant defaults).
 * The API's errors name a permission at `/permissions/<name>`; they show beside that permission.
 */
import type { FieldProblem } from '../api/client';
import type { Permission, PermissionGrants } from '../api/types';
import { FieldError, invalidProps } from './FieldError';
import { PERMISSION_LIST } from '../people-words';

interface Props {
  legend: string;
  grants: PermissionGrants;
  onChange: (grants: PermissionGrants) => void;
  errors: FieldProblem[];
  disabled?: boolean;
}

export function GrantChecks({ legend, grants, onChange, errors, disabled = false }: Props) {
  const set = (permission: Permission, grant: 'allow' | 'deny', checked: boolean) => {
    const next = { ...grants };
    if (checked) next[permission] = grant;
    else delete next[permission];
    onChange(next);
  };
  return (
    <fieldset class="grant-checks">
      <legend>{legend}</legend>
      <ul>
        {PERMISSION_LIST.map(({ permission, guards }) => (
          <li key={permission} title={guards}>
            <code>{permission}</code>
            {(['allow', 'deny'] as const).map((grant) => (
              <label key={grant} class="inline">
                <input
                  type="checkbox"
                  disabled={disabled}
                  aria-label={`${grant === 'allow' ? 'Allow' : 'Deny'} ${permission}`}
                  checked={grants[permission] === grant}
                  onChange={(e) => set(permission, grant, e.currentTarget.checked)}
                  {...invalidProps(errors, `/permissions/${permission}`)}
                />
                {grant}
              </label>
            ))}
            <FieldError errors={errors} path={`/permissions/${permission}`} />
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
