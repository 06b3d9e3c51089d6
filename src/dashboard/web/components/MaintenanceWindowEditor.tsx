/**
 * Creates or edits a maintenance window: name, reason, what it silences (WindowMatcherFields) and
 * when (WindowTimingFields). An edit sends the ETag its GET answered as If-Match: a 409 means
 * someone changed (or ended) the window meanwhile, and the form says so and offers to load their
 * version. The API's field errors appear beside their fields; any other above the form.
 */
import type { AlertRule, MaintenanceWindow } from '../api/types';
import { LoadTheirVersion, SaveOrCancel, TextField } from './EditorParts';
import { FormProblem } from './FieldError';
import { bodyOf, windowForm } from './maintenance-form';
import { browserZone } from './schedule-form';
import { useSession } from './session-context';
import { useLoad } from './use-load';
import { useVersionedForm } from './use-versioned-form';
import { WindowMatcherFields } from './WindowMatcherFields';
import { WindowTimingFields } from './WindowTimingFields';

const CLAIMED =
  /^\/(name|reason|matcher(\/(all_rules|rule_ids|cluster_ids|severities))?|starts_at|ends_at|recurrence)(\/|$)/;

interface Props {
  windowId?: string;
  rules: AlertRule[] | undefined;
  onSaved: (window: MaintenanceWindow) => void;
  onClose: () => void;
}

export function MaintenanceWindowEditor({ windowId, rules, onSaved, onClose }: Props) {
  const { calls } = useSession();
  const clusters = useLoad(() => calls.cluster(), []);
  const { loaded, form, set, filled, failure, errors, conflict, saving, save, loadTheirs } = useVersionedForm({
    id: windowId,
    load: calls.maintenanceWindow,
    formOf: (window?: MaintenanceWindow) => windowForm(browserZone(), Date.now(), window),
    staleMessage: 'Someone changed or ended this window after you opened it',
  });
  const write = async (etag: string | null) => {
    const body = bodyOf(form);
    onSaved(
      (windowId
        ? await calls.replaceMaintenanceWindow(windowId, body, etag)
        : await calls.createMaintenanceWindow(body)
      ).data,
    );
  };

  const title = windowId ? `Edit ${loaded.value?.data.name ?? 'window'}` : 'New maintenance window';
  return (
    <form
      class="editor card window-editor"
      data-testid="window-editor"
      data-state={filled ? 'ready' : 'loading'}
      aria-label={title}
      onSubmit={(e) => void save(write)(e)}
      noValidate
    >
      <h2>{title}</h2>
      {loaded.error ? (
        <p class="error" role="alert">
          {loaded.error}
        </p>
      ) : null}
      <FormProblem failure={failure} claimed={(path) => CLAIMED.test(path)} />
      <LoadTheirVersion conflict={conflict} onLoad={loadTheirs} />
      <TextField
        id="window-name"
        label="Name"
        path="/name"
        value={form.name}
        maxLength={200}
        errors={errors}
        onInput={(name) => set({ name })}
      />
      <TextField
        id="window-reason"
        label="Reason"
        path="/reason"
        value={form.reason}
        maxLength={2000}
        errors={errors}
        onInput={(reason) => set({ reason })}
      />
      <WindowMatcherFields
        form={form}
        rules={rules}
        clusters={clusters.value?.clusters.map((c) => c.cluster_id)}
        errors={errors}
        set={set}
      />
      <WindowTimingFields form={form} errors={errors} set={set} />
      <SaveOrCancel
        saving={saving}
        ready={filled}
        label={windowId ? 'Save window' : 'Create window'}
        onClose={onClose}
      />
    </form>
  );
}
