/**
 * Creates or edits an alert rule. The metric comes from the API's list (GET /api/v1/alert-metrics),
 * the escalation policy is picked by name, the cluster from the environment's clusters; the
 * metric's value now is shown against the threshold before saving (MetricPreview). An edit sends
 * the ETag its GET answered as If-Match: a 409 means someone changed the rule meanwhile, and the
 * form says so and offers to load their version. The API's field errors appear beside the fields.
 * Beside the form, RuleBacktestPanel replays the rule as typed over past history ("would it have
 * fired?"); its refusals of the draft are marked on these same fields.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, type FieldProblem } from '../api/client';
import type { AlertRuleBody, AlertRuleDetail } from '../api/types';
import { FieldError, fieldErrorId, problemsAt, unplacedProblems } from './FieldError';
import { MetricPreview } from './MetricPreview';
import { RuleBacktestPanel } from './RuleBacktestPanel';
import { useSession } from './session-context';
import { useLoad } from './use-load';
import { SEVERITIES } from '../../../contract/vocabulary';
import { ReadFailureFields, type ReadFailureForm } from './ReadFailureFields';

const CONDITIONS: [string, string][] = [
  ['gt', '> greater than'],
  ['gte', '≥ at least'],
  ['lt', '< less than'],
  ['lte', '≤ at most'],
  ['eq', '= equal to'],
];
const FIELDS = [
  'name',
  'metric',
  'condition',
  'threshold',
  'evaluation_window_minutes',
  'severity',
  'escalation_policy_id',
  'cluster_id',
  'on_error',
  'on_no_data',
  'error_for_minutes',
];

/** The API's name of each form field (the pointers its field errors carry). */
const API_FIELD: Record<keyof Form, string> = {
  name: 'name',
  metric: 'metric',
  condition: 'condition',
  threshold: 'threshold',
  window: 'evaluation_window_minutes',
  severity: 'severity',
  policy: 'escalation_policy_id',
  cluster: 'cluster_id',
  onError: 'on_error',
  onNoData: 'on_no_data',
  errorFor: 'error_for_minutes',
};

interface Form extends ReadFailureForm {
  name: string;
  metric: string;
  condition: string;
  threshold: string;
  window: string;
  severity: string;
  policy: string;
  cluster: string;
}

const formOf = (rule?: AlertRuleDetail): Form => ({
  name: rule?.name ?? '',
  metric: rule?.metric ?? '',
  condition: rule?.condition ?? 'gt',
  threshold: rule ? String(rule.threshold) : '',
  window: rule ? String(rule.evaluation_window_minutes) : '5',
  severity: rule?.severity ?? 'high',
  policy: rule?.escalation_policy_id ?? '',
  cluster: rule?.cluster_id ?? '',
  onError: rule?.on_error ?? 'alerting',
  onNoData: rule?.on_no_data ?? 'alerting',
  errorFor: rule ? String(rule.error_for_minutes) : '5',
});

/** A number when the text is one; otherwise the text as typed, so the API names the field it refuses. */
const numeric = (text: string): number | string =>
  text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;

/**
 * The body with the fields a form sends as typed loosened to text: text the API refuses comes back
 * as a problem naming its field. Every other field is the body's own type, so a field the rule's
 * body gains, loses or renames fails the typecheck here.
 */
type AsTyped<Body, Field extends keyof Body> = Omit<Body, Field> & { [K in Field]: Body[K] | string };

/** The rule as typed, as the API takes it (saved, or backtested unsaved). */
const bodyOf = (form: Form) =>
  ({
    name: form.name,
    metric: form.metric,
    condition: form.condition,
    threshold: numeric(form.threshold),
    evaluation_window_minutes: numeric(form.window),
    severity: form.severity,
    escalation_policy_id: form.policy,
    cluster_id: form.cluster || null,
    on_error: form.onError,
    on_no_data: form.onNoData,
    error_for_minutes: numeric(form.errorFor),
  }) satisfies AsTyped<
    AlertRuleBody,
    | 'condition'
    | 'threshold'
    | 'evaluation_window_minutes'
    | 'severity'
    | 'on_error'
    | 'on_no_data'
    | 'error_for_minutes'
  > as AlertRuleBody;

export function AlertRuleEditor({
  ruleId,
  onSaved,
  onClose,
}: {
  ruleId?: string;
  onSaved: (rule: AlertRuleDetail) => void;
  onClose: () => void;
}) {
  const { calls } = useSession();
  const metrics = useLoad(() => calls.alertMetrics(), []);
  const policies = useLoad(() => calls.policyNames(), []);
  const clusters = useLoad(() => calls.cluster(), []);
  const history = useLoad(() => (ruleId ? calls.ruleHistory(ruleId) : Promise.resolve(undefined)), [ruleId]);
  const [round, setRound] = useState(0);
  const loaded = useLoad(() => (ruleId ? calls.rule(ruleId) : Promise.resolve(undefined)), [ruleId, round]);
  const [form, setForm] = useState<Form>(formOf());
  const [etag, setEtag] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldProblem[]>([]);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [conflict, setConflict] = useState(false);
  const [saving, setSaving] = useState(false);
  /** A new rule's form is ready at once; an edit's once the rule's values are in it. */
  const [filled, setFilled] = useState(ruleId === undefined);
  useEffect(() => {
    if (!loaded.value) return;
    setForm(formOf(loaded.value.data));
    setEtag(loaded.value.etag);
    setFilled(true);
  }, [loaded.value]);

  /** A field's error goes once the field is changed: what is left marked still needs fixing. */
  const set = (field: keyof Form) => (event: Event) => {
    setForm({ ...form, [field]: (event.currentTarget as HTMLInputElement).value });
    const name = API_FIELD[field];
    setErrors((current) => current.filter((e) => e.path !== `/${name}` && !e.path.startsWith(`/${name}/`)));
  };
  const described = (field: string) =>
    problemsAt(errors, `/${field}`).length > 0 ? fieldErrorId(`/${field}`) : undefined;

  const save = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setErrors([]);
    setMessage(undefined);
    setConflict(false);
    const body: AlertRuleBody = {
      ...bodyOf(form),
      ...(loaded.value ? { is_enabled: loaded.value.data.is_enabled } : {}),
    };
    try {
      const saved = ruleId ? await calls.replaceRule(ruleId, body, etag) : await calls.createRule(body);
      onSaved(saved.data);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409) {
        setConflict(true);
        setMessage(
          'Someone changed this rule after you opened it, so your edit was not saved (HTTP 409). Load their version, then make your change again.',
        );
      } else if (failure instanceof ApiError) {
        setErrors(failure.errors);
        const rest = unplacedProblems(
          failure.errors,
          FIELDS.map((field) => `/${field}`),
        );
        setMessage(
          failure.errors.length > 0 && rest.length === 0
            ? 'The rule was not saved: see the fields marked.'
            : [failure.message, ...rest.map((e) => `${e.path}: ${e.message}`)].join(' — '),
        );
      } else {
        setMessage((failure as Error).message);
      }
    } finally {
      setSaving(false);
    }
  };

  const metric = metrics.value?.find((m) => m.id === form.metric);
  const title = ruleId ? `Edit ${loaded.value?.data.name ?? 'rule'}` : 'New alert rule';
  return (
    <div class="rule-workbench">
      <form
        class="rule-editor"
        data-testid="rule-editor"
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
        <label>
          Name
          <input
            name="name"
            value={form.name}
            onInput={set('name')}
            maxLength={200}
            aria-describedby={described('name')}
          />
        </label>
        <FieldError errors={errors} path="/name" />
        <label>
          Metric
          <select name="metric" value={form.metric} onChange={set('metric')} aria-describedby={described('metric')}>
            <option value="">
              {metrics.value ? '— pick a metric —' : metrics.error ? 'metrics could not be listed' : 'loading…'}
            </option>
            {(metrics.value ?? []).map((m) => (
              <option key={m.id} value={m.id}>
                {m.id} ({m.unit})
              </option>
            ))}
          </select>
        </label>
        <FieldError errors={errors} path="/metric" />
        <div class="rule-editor-row">
          <label>
            Condition
            <select name="condition" value={form.condition} onChange={set('condition')}>
              {CONDITIONS.map(([id, text]) => (
                <option key={id} value={id}>
                  {text}
                </option>
              ))}
            </select>
          </label>
          <label>
            Threshold
            <input
              name="threshold"
              inputMode="decimal"
              value={form.threshold}
              onInput={set('threshold')}
              aria-describedby={described('threshold')}
            />
          </label>
          <label>
            Window (minutes)
            <input
              name="evaluation_window_minutes"
              inputMode="numeric"
              value={form.window}
              onInput={set('window')}
              aria-describedby={described('evaluation_window_minutes')}
            />
          </label>
        </div>
        <FieldError errors={errors} path="/condition" />
        <FieldError errors={errors} path="/threshold" />
        <FieldError errors={errors} path="/evaluation_window_minutes" />
        <MetricPreview
          metric={metric}
          condition={form.condition}
          threshold={typeof numeric(form.threshold) === 'number' ? Number(form.threshold) : undefined}
          windowMinutes={typeof numeric(form.window) === 'number' ? Number(form.window) : undefined}
          clusterId={form.cluster}
          history={history.value}
        />
        <div class="rule-editor-row">
          <label>
            Severity
            <select name="severity" value={form.severity} onChange={set('severity')}>
              {SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label>
            Escalation policy
            <select
              name="escalation_policy_id"
              value={form.policy}
              onChange={set('policy')}
              aria-describedby={described('escalation_policy_id')}
            >
              <option value="">
                {policies.value ? '— pick a policy —' : policies.error ? 'policies could not be listed' : 'loading…'}
              </option>
              {(policies.value ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Cluster (optional)
            {clusters.value ? (
              <select
                name="cluster_id"
                value={form.cluster}
                onChange={set('cluster')}
                aria-describedby={described('cluster_id')}
              >
                <option value="">all clusters of the environment</option>
                {clusters.value.clusters.map((c) => (
                  <option key={c.cluster_id} value={c.cluster_id}>
                    {c.cluster_id}
                  </option>
                ))}
              </select>
            ) : (
              <input
                name="cluster_id"
                value={form.cluster}
                onInput={set('cluster')}
                aria-describedby={described('cluster_id')}
              />
            )}
          </label>
        </div>
        <FieldError errors={errors} path="/severity" />
        <FieldError errors={errors} path="/escalation_policy_id" />
        <FieldError errors={errors} path="/cluster_id" />
        <ReadFailureFields form={form} errors={errors} set={set} described={described} />
        {message ? (
          <p class="error" role="alert" data-testid="editor-message">
            {message}
          </p>
        ) : null}
        <div class="rule-editor-actions">
          <button type="submit" class="button primary" disabled={saving || !filled}>
            {saving ? 'Saving…' : ruleId ? 'Save changes' : 'Create rule'}
          </button>
          {conflict ? (
            <button
              type="button"
              class="button"
              onClick={() => {
                setConflict(false);
                setMessage(undefined);
                setRound((n) => n + 1);
              }}
            >
              Load their version
            </button>
          ) : null}
          <button type="button" class="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
      {filled ? (
        <RuleBacktestPanel
          draft={() => bodyOf(form)}
          onRefused={(refused) => {
            setErrors(refused);
            setMessage(undefined);
          }}
        />
      ) : null}
    </div>
  );
}
