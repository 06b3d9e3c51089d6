/**
 * The tenant's permission defaults (the last level: they decide only what no override, group or
 * role decides, so for users without a role or whose custom role leaves a permission open).
 * Read with iam:read; saved with iam:admin (PUT replaces the whole map).
 */
import { useEffect, useState } from 'preact/hooks';
import type { PermissionGrants } from '../api/types';
import { errorsOf, FormProblem } from './FieldError';
import { GrantChecks } from './GrantChecks';
import { useSession } from './session-context';
import { useLoad } from './use-load';

export function TenantDefaultsCard() {
  const { calls, can } = useSession();
  const loaded = useLoad(() => calls.tenantDefaults(), []);
  const [grants, setGrants] = useState<PermissionGrants>({});
  const [failure, setFailure] = useState<Error | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const [savedAt, setSavedAt] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (loaded.value) setGrants(loaded.value.permissions);
  }, [loaded.value]);
  const admin = can('iam:admin');

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setFailure(undefined);
    try {
      const answer = await calls.setTenantDefaults(grants);
      setSavedAt(answer.updated_at ?? new Date().toISOString());
      loaded.reload();
    } catch (error) {
      setFailure(error as Error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <details class="card">
      <summary>Tenant defaults (for permissions no role or group decides)</summary>
      <form class="editor" onSubmit={(e) => void submit(e)} noValidate aria-label="Tenant permission defaults">
        <FormProblem
          failure={failure ?? (loaded.error ? new Error(loaded.error) : undefined)}
          claimed={(path) => path.startsWith('/permissions/')}
        />
        <GrantChecks
          legend="Defaults"
          grants={grants}
          onChange={setGrants}
          errors={errorsOf(failure)}
          disabled={!admin}
        />
        <div class="form-actions">
          <button
            type="submit"
            class="button primary"
            disabled={!admin || saving}
            title={admin ? undefined : 'needs the permission iam:admin'}
          >
            Save defaults
          </button>
          {savedAt ? <span role="status">Saved.</span> : null}
        </div>
      </form>
    </details>
  );
}
