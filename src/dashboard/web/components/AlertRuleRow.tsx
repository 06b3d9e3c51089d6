/**
 * One alert rule: what it watches, its recent readings, and the enable/disable switch. A failing
 * rule says why (its `last_error`), and the switch answers at once: "Disabling…" while the API
 * call runs, then the API's answer in a status line (issue 29, defect 9). Edit opens the page's
 * editor; Delete asks for a confirmation in the row first.
 */
import { useState } from 'preact/hooks';
import type { AlertRule } from '../api/types';
import { CONDITION_SYMBOL, number } from '../format';
import { ActionButton } from './ActionButton';
import { SeverityBadge } from './SeverityBadge';
import { useSession } from './session-context';
import { Sparkline } from './Sparkline';
import { useLoad } from './use-load';

/** The API answers why a rule is failing and since when (src/openapi/alert-rules.ts). */
type RuleWithHealth = AlertRule & { last_error?: string | null; failing_since?: string | null };

interface Props {
  rule: RuleWithHealth;
  onChange: (rule: AlertRule) => void;
  onEdit?: (ruleId: string) => void;
  onDeleted?: (ruleId: string) => void;
  /** The name of the active maintenance window that silences the rule (issue 30). */
  silencedBy?: string;
}

export function AlertRuleRow({ rule, onChange, onEdit, onDeleted, silencedBy }: Props) {
  const { calls, can } = useSession();
  const [confirming, setConfirming] = useState(false);
  const history = useLoad(() => calls.ruleHistory(rule.id), [rule.id]);
  const [pending, setPending] = useState<'Enabling…' | 'Disabling…' | undefined>(undefined);
  const [outcome, setOutcome] = useState('');
  const failing = rule.is_enabled && rule.health === 'failing';
  const toggle = async () => {
    setPending(rule.is_enabled ? 'Disabling…' : 'Enabling…');
    setOutcome('');
    try {
      const changed = await calls.setRuleEnabled(rule.id, !rule.is_enabled);
      onChange(changed);
      setOutcome(changed.is_enabled ? 'Enabled' : 'Disabled');
    } finally {
      setPending(undefined);
    }
  };
  return (
    <tr
      data-rule-id={rule.id}
      data-enabled={String(rule.is_enabled)}
      data-health={rule.health}
      data-pending={pending ? 'true' : undefined}
    >
      <td data-label="Rule">
        {rule.name}
        {silencedBy ? (
          <>
            {' '}
            <a class="badge silenced" href="#/maintenance" data-testid="rule-silenced">
              silenced by {silencedBy}
            </a>
          </>
        ) : null}
      </td>
      <td data-label="Condition">
        {rule.metric} {CONDITION_SYMBOL[rule.condition] ?? rule.condition} {number(rule.threshold, 2)}
        {rule.cluster_id ? <span class="muted"> on {rule.cluster_id}</span> : null}
      </td>
      <td data-label="Severity">
        <SeverityBadge severity={rule.severity} />
      </td>
      <td data-label="Recent readings">
        {history.value ? (
          <Sparkline
            label={`readings of ${rule.name}`}
            threshold={rule.threshold}
            points={history.value.map((entry) => ({
              at: Date.parse(entry.at),
              value: entry.value,
              marked: entry.condition_met === true,
            }))}
          />
        ) : history.error ? (
          <span class="error">{history.error}</span>
        ) : (
          '…'
        )}
      </td>
      <td class={failing ? 'error-text' : undefined} data-testid="rule-state" data-label="State">
        {rule.is_enabled ? (failing ? 'failing' : 'enabled') : 'disabled'}
        {failing && rule.last_error ? (
          <div class="error-text" data-testid="rule-last-error">
            {rule.last_error}
            {rule.on_error === 'alerting'
              ? ` (pages after ${rule.error_for_minutes} min of failed reads)`
              : ' (does not page for failed reads)'}
          </div>
        ) : null}
      </td>
      <td data-label="Incident">
        {rule.active_incident_id ? <a href={`#/incidents/${rule.active_incident_id}`}>open incident</a> : '—'}
      </td>
      <td>
        <ActionButton
          label={pending ?? (rule.is_enabled ? 'Disable' : 'Enable')}
          permission="alerts:write"
          action={toggle}
        />
        {onEdit && can('alerts:write') ? (
          <button type="button" class="button" onClick={() => onEdit(rule.id)} aria-label={`Edit ${rule.name}`}>
            Edit
          </button>
        ) : null}
        {onDeleted && can('alerts:write') && !confirming ? (
          <button
            type="button"
            class="button danger"
            onClick={() => setConfirming(true)}
            aria-label={`Delete ${rule.name}`}
          >
            Delete
          </button>
        ) : null}
        {onDeleted && confirming ? (
          <span class="rule-delete-confirm" data-testid="rule-delete-confirm">
            <span>
              Delete “{rule.name}”{rule.active_incident_id ? ' and resolve its open incident' : ''}?
            </span>
            <ActionButton
              label="Yes, delete"
              kind="danger"
              permission="alerts:write"
              action={async () => {
                await calls.deleteRule(rule.id);
                onDeleted(rule.id);
              }}
            />
            <button type="button" class="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </span>
        ) : null}
        <span role="status" class="muted" data-testid="rule-action-outcome">
          {outcome}
        </span>
      </td>
    </tr>
  );
}
