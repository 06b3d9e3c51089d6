/** Alert rules: list, enable/disable, and a sparkline of each rule's recent evaluations. */
import { useEffect, useState } from 'preact/hooks';
import type { AlertRule } from '../api/types';
import { AlertRuleRow } from '../components/AlertRuleRow';
import { ErrorNote } from '../components/ErrorNote';
import { useSession } from '../components/session-context';
import { useLoad } from '../components/use-load';

export function AlertRulesPage() {
  const { calls } = useSession();
  const loaded = useLoad(() => calls.alertRules(), []);
  const [rules, setRules] = useState<AlertRule[]>([]);
  useEffect(() => setRules(loaded.value ?? []), [loaded.value]);
  const replace = (changed: AlertRule) => setRules((current) => current.map((rule) => (rule.id === changed.id ? changed : rule)));
  return (
    <section>
      <h1>Alert rules</h1>
      <ErrorNote error={loaded.error} />
      {loaded.value && rules.length === 0 ? <p class="empty">No alert rules yet (POST /api/v1/alert-rules).</p> : null}
      {rules.length > 0 ? (
        <table class="grid" data-testid="alert-rules">
          <thead><tr><th>Rule</th><th>Condition</th><th>Severity</th><th>Recent readings</th><th>State</th><th>Incident</th><th /></tr></thead>
          <tbody>{rules.map((rule) => <AlertRuleRow key={rule.id} rule={rule} onChange={replace} />)}</tbody>
        </table>
      ) : null}
    </section>
  );
}
