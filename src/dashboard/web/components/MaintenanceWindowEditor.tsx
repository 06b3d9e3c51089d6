/**
 * Creates or edits a maintenance window: name, reason, what it silences (WindowMatcherFields) and
 * when (WindowTimingFields). An edit sends the ETag its GET answered as If-Match: a 409 means
 * someone changed (or ended) the window meanwhile, and the form says so and offers to load their
 * version. The API's field errors appear beside their fields; any other above the form.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { AlertRule, MaintenanceWindow } from '../api/types';
import { errorsOf, FieldError, FormProblem, invalidProps } from './FieldError';
import { bodyOf, windowForm, type WindowForm } from './maintenance-form';
import { browserZone } from './schedule-form';
import { useSession } from './session-context';
import { useLoad } from './use-load';
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
  const [round, setRound] = useState(0);
  const loaded = useLoad(
    () => (windowId ? calls.maintenanceWindow(windowId) : Promise.resolve(undefined)),
    [windowId, round],
  );
  const [form, setForm] = useState<WindowForm>(() => windowForm(browserZone(), Date.now()));
  const [etag, setEtag] = useState<string | null>(null);
  const [filled, setFilled] = useState(windowId === undefined);
  const [failure, setFailure] = useState<Error | undefined>(undefined);
  const [conflict, setConflict] = useState(false);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!loaded.value) return;
    setForm(windowForm(browserZone(), Date.now(), loaded.value.data));
    setEtag(loaded.value.etag);
    setFilled(true);
  }, [loaded.value]);
  const errors = errorsOf(failure);
  const set = (change: Partial<WindowForm>) => setForm((current) => ({ ...current, ...change }));

  const save = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setFailure(undefined);
    setConflict(false);
    try {
      const body = bodyOf(form);
      onSaved(
        (windowId
          ? await calls.replaceMaintenanceWindow(windowId, body, etag)
          : await calls.createMaintenanceWindow(body)
        ).data,
      );
    } catch (error) {
      const stale = error instanceof ApiError && error.status === 409;
      setConflict(stale);
      setFailure(
        stale
          ? new Error(
              `Someone changed or ended this window after you opened it, so your edit was not saved (HTTP 409: ${(error as Error).message}). Load their version, then make your change again.`,
            )
          : (error as Error),
      );
    } finally {
      setSaving(false);
    }
  };

  const title = windowId ? `Edit ${loaded.value?.data.name ?? 'window'}` : 'New maintenance window';
  return (
    <form
      class="editor card window-editor"
      data-testid="window-editor"
      data-state={filled ? 'ready' : 'loading'}
      aria-label={title}
      onSubmit={(e) => void save(e)}
      noValidate
    >
      <h2>{title}</h2>
      {loaded.error ? (
        <p class="error" role="alert">
          {loaded.error}
        </p>
      ) : null}
      <FormProblem failure={failure} claimed={(path) => CLAIMED.test(path)} />
      {conflict ? (
        <div class="form-actions">
          <button
            type="button"
            class="button plain"
            onClick={() => {
              setConflict(false);
              setFailure(undefined);
              setRound((n) => n + 1);
            }}
          >
            Load their version
          </button>
        </div>
      ) : null}
      <div class="field">
        <label for="window-name">Name</label>
        <input
          id="window-name"
          value={form.name}
          maxLength={200}
          onInput={(e) => set({ name: e.currentTarget.value })}
          {...invalidProps(errors, '/name')}
        />
        <FieldError errors={errors} path="/name" />
      </div>
      <div class="field">
        <label for="window-reason">Reason</label>
        <input
          id="window-reason"
          value={form.reason}
          maxLength={2000}
          onInput={(e) => set({ reason: e.currentTarget.value })}
          {...invalidProps(errors, '/reason')}
        />
        <FieldError errors={errors} path="/reason" />
      </div>
      <WindowMatcherFields
        form={form}
        rules={rules}
        clusters={clusters.value?.clusters.map((c) => c.cluster_id)}
        errors={errors}
        set={set}
      />
      <WindowTimingFields form={form} errors={errors} set={set} />
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={saving || !filled}>
          {saving ? 'Saving…' : windowId ? 'Save window' : 'Create window'}
        </button>
        <button type="button" class="button plain" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
