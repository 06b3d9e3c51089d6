import type { Heartbeat, HeartbeatBody, HeartbeatWithAddress, PolicyName } from '../api/types';
import { LoadTheirVersion, PolicyField, SaveOrCancel, SeverityField, TextField } from './EditorParts';
import { FieldError, FormProblem, invalidProps } from './FieldError';
import { useSession } from './session-context';
import { useVersionedForm } from './use-versioned-form';

const CLAIMED = /^\/(name|interval_seconds|grace_seconds|escalation_policy_id|severity|enabled)(\/|$)/;

interface Props {
  heartbeatId?: string;
  policies: PolicyName[] | undefined;
  onCreated: (heartbeat: HeartbeatWithAddress) => void;
  onSaved: (heartbeat: Heartbeat) => void;
  onClose: () => void;
}

interface Form {
  name: string;
  intervalMinutes: string;
  graceMinutes: string;
  policyId: string;
  severity: HeartbeatBody['severity'];
  enabled: boolean;
}

const formOf = (heartbeat?: Heartbeat): Form => ({
  name: heartbeat?.name ?? '',
  intervalMinutes: heartbeat ? String(heartbeat.interval_seconds / 60) : '60',
  graceMinutes: heartbeat ? String(heartbeat.grace_seconds / 60) : '5',
  policyId: heartbeat?.escalation_policy_id ?? '',
  severity: heartbeat?.severity ?? 'high',
  enabled: heartbeat?.enabled ?? true,
});

const bodyOf = (form: Form): HeartbeatBody => ({
  name: form.name,
  interval_seconds: Math.round(Number(form.intervalMinutes) * 60),
  grace_seconds: Math.round(Number(form.graceMinutes) * 60),
  escalation_policy_id: form.policyId,
  severity: form.severity,
  enabled: form.enabled,
});

export function HeartbeatEditor({ heartbeatId, policies, onCreated, onSaved, onClose }: Props) {
  const { calls } = useSession();
  const { loaded, form, set, filled, failure, errors, conflict, saving, save, loadTheirs } = useVersionedForm({
    id: heartbeatId,
    load: calls.heartbeat,
    formOf,
    staleMessage: 'Someone changed this heartbeat after you opened it, or another heartbeat has this name',
  });
  const write = async (etag: string | null) => {
    if (heartbeatId) onSaved((await calls.replaceHeartbeat(heartbeatId, bodyOf(form), etag)).data);
    else onCreated(await calls.createHeartbeat(bodyOf(form)));
  };

  const title = heartbeatId ? `Edit ${loaded.value?.data.name ?? 'heartbeat'}` : 'New heartbeat';
  return (
    <form
      class="editor card"
      data-testid="heartbeat-editor"
      data-state={filled ? 'ready' : 'loading'}
      aria-label={title}
      onSubmit={(e) => void save(write)(e)}
      noValidate
    >
      <h2>{title}</h2>
      <FormProblem failure={failure} claimed={(path) => CLAIMED.test(path)} />
      <LoadTheirVersion conflict={conflict} onLoad={loadTheirs} />
      <TextField
        id="heartbeat-name"
        label="Name"
        path="/name"
        value={form.name}
        maxLength={200}
        errors={errors}
        onInput={(name) => set({ name })}
      />
      <div class="field">
        <label for="heartbeat-interval">Expected every (minutes)</label>
        <input
          id="heartbeat-interval"
          type="number"
          min={1}
          value={form.intervalMinutes}
          onInput={(e) => set({ intervalMinutes: e.currentTarget.value })}
          {...invalidProps(errors, '/interval_seconds')}
        />
        <FieldError errors={errors} path="/interval_seconds" />
      </div>
      <div class="field">
        <label for="heartbeat-grace">Grace before paging (minutes)</label>
        <input
          id="heartbeat-grace"
          type="number"
          min={0}
          value={form.graceMinutes}
          onInput={(e) => set({ graceMinutes: e.currentTarget.value })}
          {...invalidProps(errors, '/grace_seconds')}
        />
        <FieldError errors={errors} path="/grace_seconds" />
      </div>
      <PolicyField
        id="heartbeat-policy"
        value={form.policyId}
        policies={policies}
        errors={errors}
        onChange={(policyId) => set({ policyId })}
      />
      <SeverityField id="heartbeat-severity" value={form.severity} onChange={(severity) => set({ severity })} />
      <div class="field">
        <label>
          <input type="checkbox" checked={form.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />{' '}
          Enabled (a paused heartbeat pages for nothing)
        </label>
      </div>
      <SaveOrCancel
        saving={saving}
        ready={filled}
        label={heartbeatId ? 'Save heartbeat' : 'Create heartbeat'}
        onClose={onClose}
      />
    </form>
  );
}
