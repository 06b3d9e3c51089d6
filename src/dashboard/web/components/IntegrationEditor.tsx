import type { Integration, IntegrationBody, IntegrationKind, IntegrationWithKey, PolicyName } from '../api/types';
import { INTEGRATION_KIND_WORDS } from '../integration-words';
import { LoadTheirVersion, PolicyField, SaveOrCancel, SeverityField, TextField } from './EditorParts';
import { FieldError, FormProblem, invalidProps } from './FieldError';
import { useSession } from './session-context';
import { useVersionedForm } from './use-versioned-form';

const CLAIMED = /^\/(name|kind|escalation_policy_id|default_severity)(\/|$)/;

interface Props {
  integrationId?: string;
  policies: PolicyName[] | undefined;
  onCreated: (integration: IntegrationWithKey) => void;
  onSaved: (integration: Integration) => void;
  onClose: () => void;
}

interface Form {
  name: string;
  kind: IntegrationKind;
  policyId: string;
  defaultSeverity: Integration['default_severity'];
  severityMap: Integration['severity_map'] | undefined;
}

const formOf = (integration?: Integration): Form => ({
  name: integration?.name ?? '',
  kind: integration?.kind ?? 'events_v2',
  policyId: integration?.escalation_policy_id ?? '',
  defaultSeverity: integration?.default_severity ?? 'high',
  severityMap: integration?.severity_map,
});

const bodyOf = (form: Form): IntegrationBody => ({
  name: form.name,
  kind: form.kind,
  escalation_policy_id: form.policyId,
  default_severity: form.defaultSeverity,
  ...(form.severityMap ? { severity_map: form.severityMap } : {}),
});

export function IntegrationEditor({ integrationId, policies, onCreated, onSaved, onClose }: Props) {
  const { calls } = useSession();
  const { loaded, form, set, filled, failure, errors, conflict, saving, save, loadTheirs } = useVersionedForm({
    id: integrationId,
    load: calls.integration,
    formOf,
    staleMessage: 'Someone changed this integration after you opened it, or another integration has this name',
  });
  const write = async (etag: string | null) => {
    if (integrationId) onSaved((await calls.replaceIntegration(integrationId, bodyOf(form), etag)).data);
    else onCreated(await calls.createIntegration(bodyOf(form)));
  };

  const title = integrationId ? `Edit ${loaded.value?.data.name ?? 'integration'}` : 'New integration';
  return (
    <form
      class="editor card"
      data-testid="integration-editor"
      data-state={filled ? 'ready' : 'loading'}
      aria-label={title}
      onSubmit={(e) => void save(write)(e)}
      noValidate
    >
      <h2>{title}</h2>
      <FormProblem failure={failure} claimed={(path) => CLAIMED.test(path)} />
      <LoadTheirVersion conflict={conflict} onLoad={loadTheirs} />
      <TextField
        id="integration-name"
        label="Name"
        path="/name"
        value={form.name}
        maxLength={200}
        errors={errors}
        onInput={(name) => set({ name })}
      />
      <div class="field">
        <label for="integration-kind">Sent by</label>
        <select
          id="integration-kind"
          value={form.kind}
          disabled={integrationId !== undefined}
          onChange={(e) => set({ kind: e.currentTarget.value as IntegrationKind })}
          {...invalidProps(errors, '/kind')}
        >
          {Object.entries(INTEGRATION_KIND_WORDS).map(([kind, words]) => (
            <option key={kind} value={kind}>
              {words}
            </option>
          ))}
        </select>
        <FieldError errors={errors} path="/kind" />
      </div>
      <PolicyField
        id="integration-policy"
        value={form.policyId}
        policies={policies}
        errors={errors}
        onChange={(policyId) => set({ policyId })}
      />
      <SeverityField
        id="integration-severity"
        label="Severity of an unmapped alert"
        value={form.defaultSeverity}
        onChange={(defaultSeverity) => set({ defaultSeverity })}
      />
      <SaveOrCancel
        saving={saving}
        ready={filled}
        label={integrationId ? 'Save integration' : 'Create integration'}
        onClose={onClose}
      />
    </form>
  );
}
