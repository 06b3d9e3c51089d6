/** One alert rule: what it watches, its recent readings, and the enable/disable switch. */
import type { AlertRule } from '../api/types';
import { CONDITION_SYMBOL, number } from '../format';
import { ActionButton } from './ActionButton';
import { SeverityBadge } from './SeverityBadge';
import { useSession } from './session-context';
import { Sparkline } from './Sparkline';
import { useLoad } from './use-load';

export function AlertRuleRow({ rule, onChange }: { rule: AlertRule; onChange: (rule: AlertRule) => void }) {
  const { calls } = useSession();
  const history = useLoad(() => calls.ruleHistory(rule.id), [rule.id]);
  return (
    <tr data-rule-id={rule.id} data-enabled={String(rule.is_enabled)}>
      <td>{rule.name}</td>
      <td>{rule.metric} {CONDITION_SYMBOL[rule.condition] ?? rule.condition} {number(rule.threshold, 2)}{rule.cluster_id ? <span class="muted"> on {rule.cluster_id}</span> : null}</td>
      <td><SeverityBadge severity={rule.severity} /></td>
      <td>
        {history.value ? (
          <Sparkline label={`readings of ${rule.name}`} threshold={rule.threshold}
            points={history.value.map((entry) => ({ at: Date.parse(entry.at), value: entry.value, marked: entry.condition_met }))} />
        ) : history.error ? <span class="error">{history.error}</span> : '…'}
      </td>
      <td class={rule.health === 'failing' ? 'error-text' : undefined}>{rule.is_enabled ? (rule.health === 'failing' ? 'failing' : 'enabled') : 'disabled'}</td>
      <td>{rule.active_incident_id ? <a href={`#/incidents/${rule.active_incident_id}`}>open incident</a> : '—'}</td>
      <td>
        <ActionButton
          label={rule.is_enabled ? 'Disable' : 'Enable'}
          permission="alerts:write"
          action={async () => onChange(await calls.setRuleEnabled(rule.id, !rule.is_enabled))}
        />
      </td>
    </tr>
  );
}
