/**
 * What a maintenance window silences: every rule, or the rules matching every list ticked — rules
 * picked by name, clusters of the environment (as the rule editor lists them), severities. The API's
 * errors about the matcher show beside the part they name.
 */
import { SEVERITIES as ALL_SEVERITIES } from '../../../contract/vocabulary';
import type { FieldProblem } from '../api/client';
import type { AlertRule, WindowMatcher } from '../api/types';
import { FieldError, invalidProps } from './FieldError';
import { toggled, type WindowForm } from './maintenance-form';

const SEVERITIES: WindowMatcher['severities'] = [...ALL_SEVERITIES];

interface Props {
  form: WindowForm;
  rules: AlertRule[] | undefined;
  clusters: string[] | undefined;
  errors: FieldProblem[];
  set: (change: Partial<WindowForm>) => void;
}

function Checks<T extends string>({
  legend,
  path,
  options,
  chosen,
  label,
  errors,
  onChange,
}: {
  legend: string;
  path: string;
  options: T[];
  chosen: T[];
  label: (option: T) => string;
  errors: FieldProblem[];
  onChange: (chosen: T[]) => void;
}) {
  return (
    <fieldset class="window-checks" {...invalidProps(errors, path)}>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} class="check">
          <input
            type="checkbox"
            checked={chosen.includes(option)}
            onChange={(e) => onChange(toggled(chosen, option, e.currentTarget.checked))}
          />
          {label(option)}
        </label>
      ))}
      <FieldError errors={errors} path={path} />
    </fieldset>
  );
}

export function WindowMatcherFields({ form, rules, clusters, errors, set }: Props) {
  return (
    <div class="window-matcher">
      <label class="check">
        <input
          type="checkbox"
          checked={form.allRules}
          onChange={(e) => set({ allRules: e.currentTarget.checked })}
          {...invalidProps(errors, '/matcher/all_rules')}
        />
        Silence every alert rule
      </label>
      <FieldError errors={errors} path="/matcher/all_rules" />
      {form.allRules ? null : (
        <>
          <p class="hint">A rule is silenced when it matches every list ticked.</p>
          {rules ? (
            <Checks
              legend="Rules"
              path="/matcher/rule_ids"
              options={rules.map((rule) => rule.id)}
              chosen={form.ruleIds}
              errors={errors}
              label={(id) => rules.find((rule) => rule.id === id)?.name ?? id}
              onChange={(ruleIds) => set({ ruleIds })}
            />
          ) : (
            <p class="muted">Loading rules…</p>
          )}
          {clusters && clusters.length > 0 ? (
            <Checks
              legend="Clusters"
              path="/matcher/cluster_ids"
              options={clusters}
              chosen={form.clusterIds}
              errors={errors}
              label={(cluster) => cluster}
              onChange={(clusterIds) => set({ clusterIds })}
            />
          ) : null}
          <Checks
            legend="Severities"
            path="/matcher/severities"
            options={SEVERITIES}
            chosen={form.severities}
            errors={errors}
            label={(severity) => severity}
            onChange={(severities) => set({ severities })}
          />
        </>
      )}
    </div>
  );
}
