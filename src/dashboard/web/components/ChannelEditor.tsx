/**
 * Creates or edits a notification channel: name, type and that type's config. Editing starts from
 * the channel as the API answered it (secrets masked); a masked secret sent back unchanged keeps the
 * stored one, so a secret changes only when someone types a new one. Errors show beside their fields.
 */
import { useState } from 'preact/hooks';
import type { ChannelType, NotificationChannel } from '../api/types';
import { CHANNEL_TYPES, configForm, configOf, PAGER_SEVERITIES, SEVERITIES, type ConfigForm } from './channel-config';
import { errorsOf, FormProblem, FieldError } from './FieldError';
import { PagingField, PagingTextField } from './PagingTextField';
import { useSession } from './session-context';

const CLAIMED = [
  '/name',
  '/type',
  '/config/recipients',
  '/config/subject_template',
  '/config/url',
  '/config/method',
  '/config/headers',
  '/config/webhook_url',
  '/config/channel_name',
  '/config/integration_key',
  '/config/severity_mapping',
];

export function ChannelEditor({
  channel,
  onSaved,
  onCancel,
}: {
  channel?: NotificationChannel;
  onSaved: (saved: NotificationChannel) => void;
  onCancel: () => void;
}) {
  const { calls } = useSession();
  const [name, setName] = useState(channel?.name ?? '');
  const [type, setType] = useState<ChannelType>(channel?.type ?? 'webhook');
  const [form, setForm] = useState<ConfigForm>(configForm(channel?.config));
  const [failure, setFailure] = useState<Error | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const errors = errorsOf(failure);
  const set = (key: keyof ConfigForm) => (value: string) => setForm((current) => ({ ...current, [key]: value }));
  const field = (
    label: string,
    key: Exclude<keyof ConfigForm, 'severity_mapping'>,
    extra: { hint?: string; multiline?: boolean } = {},
  ) => (
    <PagingTextField
      label={label}
      path={`/config/${key}`}
      value={form[key]}
      onInput={set(key)}
      errors={errors}
      {...extra}
    />
  );

  const save = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setFailure(undefined);
    try {
      const draft = { name, type, config: configOf(type, form) };
      onSaved(channel ? await calls.updateChannel(channel.id, draft) : await calls.createChannel(draft));
    } catch (error) {
      setFailure(error as Error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      class="editor card"
      onSubmit={(e) => void save(e)}
      noValidate
      aria-label={channel ? `Edit channel ${channel.name}` : 'New channel'}
    >
      <h2>{channel ? `Edit ${channel.name}` : 'New notification channel'}</h2>
      <FormProblem
        failure={failure}
        claimed={(path) => CLAIMED.some((claimed) => path === claimed || path.startsWith(`${claimed}/`))}
      />
      <PagingTextField label="Name" path="/name" value={name} onInput={setName} errors={errors} />
      <PagingField
        label="Type"
        path="/type"
        errors={errors}
        control={(props) => (
          <select {...props} value={type} onChange={(e) => setType(e.currentTarget.value as ChannelType)}>
            {CHANNEL_TYPES.map((option) => (
              <option key={option.type} value={option.type}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      />
      {type === 'email' ? (
        <>
          {field('Recipients', 'recipients', { hint: 'one address per line', multiline: true })}
          {field('Subject template', 'subject_template', {
            hint: '{{severity}} {{status}} {{rule_name}} {{metric}} {{current_value}} {{threshold}} {{incident_id}}',
          })}
        </>
      ) : null}
      {type === 'webhook' ? (
        <>
          {field('URL', 'url')}
          <PagingField
            label="Method"
            path="/config/method"
            errors={errors}
            control={(props) => (
              <select {...props} value={form.method} onChange={(e) => set('method')(e.currentTarget.value)}>
                <option value="POST">POST</option>
                <option value="PUT">PUT</option>
              </select>
            )}
          />
          {field('Headers', 'headers', {
            hint: 'Name: value, one per line; values are secrets (shown masked; keep the mask to keep the value)',
            multiline: true,
          })}
        </>
      ) : null}
      {type === 'chat' ? (
        <>
          {field('Incoming-webhook URL', 'webhook_url', { hint: 'a secret: shown masked; keep the mask to keep it' })}
          {field('Channel name', 'channel_name', { hint: 'a label: the webhook posts to the channel it was made for' })}
        </>
      ) : null}
      {type === 'pager' ? (
        <>
          {field('Integration key', 'integration_key', {
            hint: '32 letters and digits; shown masked, keep the mask to keep it',
          })}
          <fieldset class="field">
            <legend>Severity mapping</legend>
            {SEVERITIES.map((severity) => (
              <label key={severity} class="inline">
                {severity}{' '}
                <select
                  value={form.severity_mapping[severity]}
                  onChange={(e) =>
                    setForm((current) => ({
                      ...current,
                      severity_mapping: { ...current.severity_mapping, [severity]: e.currentTarget.value },
                    }))
                  }
                >
                  {PAGER_SEVERITIES.map((value) => (
                    <option key={value} value={value}>
                      {value}
                    </option>
                  ))}
                </select>
              </label>
            ))}
            <FieldError errors={errors} path="/config/severity_mapping" />
          </fieldset>
        </>
      ) : null}
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={saving}>
          {channel ? 'Save channel' : 'Create channel'}
        </button>
        <button type="button" class="button plain" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
