/**
 * An integration's address and routing key just made (create, rotate), shown this once with a
 * copy button each: the API never shows the key again, only its last four characters.
 */
import { useState } from 'preact/hooks';
import type { IntegrationWithKey } from '../api/types';

/** Copies to the clipboard; where the browser refuses, selects the field for a copy by hand. */
function CopyField({ label, value }: { label: string; value: string }) {
  const [said, setSaid] = useState('');
  const copy = async (input: HTMLInputElement | null) => {
    try {
      await navigator.clipboard.writeText(value);
      setSaid('Copied');
    } catch {
      input?.select();
      setSaid('Selected: copy it with Ctrl+C');
    }
  };
  const id = `copy-${label.toLowerCase().replaceAll(' ', '-')}`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <div class="copy-field">
        <input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          class="button"
          aria-label={`Copy the ${label[0]!.toLowerCase()}${label.slice(1)}`}
          onClick={() => void copy(document.getElementById(id) as HTMLInputElement | null)}
        >
          Copy
        </button>
        <span class="muted" role="status">
          {said}
        </span>
      </div>
    </div>
  );
}

export function IntegrationKey({ integration, onDone }: { integration: IntegrationWithKey; onDone: () => void }) {
  return (
    <div class="card" role="region" aria-label="New routing key" data-testid="integration-key">
      <p>
        <strong>{integration.name}</strong>: where its sender posts, and its routing key. Copy the key now, it is not
        shown again (make a new one to replace it).
      </p>
      <CopyField label="Events API URL" value={integration.events_url} />
      <CopyField label="Routing key" value={integration.routing_key} />
      {integration.kind === 'events_v2' ? (
        <p class="hint">
          Alertmanager: <code>pagerduty_configs: [{`{ routing_key: <key>, url: ${integration.events_url} }`}]</code>;
          Grafana, Airflow and dbt Cloud: docs/integrations.md.
        </p>
      ) : null}
      <button type="button" class="button plain" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
