/**
 * Alert rules: list, enable/disable, a sparkline of each rule's recent evaluations, and managing
 * them: create and edit in AlertRuleEditor (with the metric's value now against the threshold),
 * delete after a confirmation in the row.
 */
import { useEffect, useState } from 'preact/hooks';
import type { AlertRule } from '../api/types';
import { AlertRuleEditor } from '../components/AlertRuleEditor';
import { AlertRuleRow } from '../components/AlertRuleRow';
import { ErrorNote } from '../components/ErrorNote';
import { useSession } from '../components/session-context';
import { useLoad } from '../components/use-load';
import { silencingWindow } from '../maintenance-words';

/** The editor's target: a new rule, or the id of the rule being edited. */
type Editing = { kind: 'new' } | { kind: 'edit'; ruleId: string } | undefined;

export function AlertRulesPage() {
  const { calls, can } = useSession();
  const loaded = useLoad(() => calls.alertRules(), []);
  // Windows active now (issue 30): a rule they match is silenced, said in its row.
  const silencing = useLoad(() => calls.maintenanceWindows(new Date()), []);
  const [rules, setRules] = useState<AlertRule[]>([]);
  const [editing, setEditing] = useState<Editing>(undefined);
  const [outcome, setOutcome] = useState('');
  useEffect(() => setRules(loaded.value ?? []), [loaded.value]);
  const replace = (changed: AlertRule) =>
    setRules((current) => current.map((rule) => (rule.id === changed.id ? changed : rule)));
  const saved = (rule: AlertRule) => {
    setRules((current) =>
      current.some((r) => r.id === rule.id) ? current.map((r) => (r.id === rule.id ? rule : r)) : [rule, ...current],
    );
    setOutcome(editing?.kind === 'new' ? `Created ${rule.name}` : `Saved ${rule.name}`);
    setEditing(undefined);
  };
  const deleted = (ruleId: string) => {
    const gone = rules.find((rule) => rule.id === ruleId);
    setRules((current) => current.filter((rule) => rule.id !== ruleId));
    setOutcome(`Deleted ${gone?.name ?? 'the rule'}`);
    if (editing?.kind === 'edit' && editing.ruleId === ruleId) setEditing(undefined);
  };
  const edit = (ruleId: string) => {
    setOutcome('');
    setEditing({ kind: 'edit', ruleId });
  };
  return (
    <section>
      <h1>
        Alert rules{' '}
        {can('alerts:write') && editing?.kind !== 'new' ? (
          <button type="button" class="button primary" onClick={() => (setOutcome(''), setEditing({ kind: 'new' }))}>
            New rule
          </button>
        ) : null}
      </h1>
      <p role="status" class="muted" data-testid="rules-outcome">
        {outcome}
      </p>
      {editing ? (
        <AlertRuleEditor
          key={editing.kind === 'edit' ? editing.ruleId : 'new'}
          ruleId={editing.kind === 'edit' ? editing.ruleId : undefined}
          onSaved={saved}
          onClose={() => setEditing(undefined)}
        />
      ) : null}
      <ErrorNote error={loaded.error} />
      {loaded.value && rules.length === 0 ? <p class="empty">No alert rules yet.</p> : null}
      {rules.length > 0 ? (
        <table class="grid" data-testid="alert-rules">
          <thead>
            <tr>
              <th>Rule</th>
              <th>Condition</th>
              <th>Severity</th>
              <th>Recent readings</th>
              <th>State</th>
              <th>Incident</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rules.map((rule) => (
              <AlertRuleRow
                key={rule.id}
                rule={rule}
                onChange={replace}
                onEdit={edit}
                onDeleted={deleted}
                silencedBy={silencingWindow(silencing.value ?? [], rule)?.name}
              />
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
