/**
 * "Would it have fired?" beside the rule editor: the editor's current, unsaved rule replayed by the
 * API over the last day, week or month of metric history (POST /api/v1/alert-rules/backtest, the
 * evaluator's own decision function; nothing is saved or sent). It runs on a button press only: a
 * month is 44,641 evaluations of work, not something to redo on each keystroke. A refused draft's
 * field errors go to the editor's fields (onRefused); a 429 (the tenant's backtests are busy) says
 * when to try again.
 */
import { useState } from 'preact/hooks';
import { ApiError, type FieldProblem } from '../api/client';
import type { AlertRuleBody, RuleBacktest } from '../api/types';
import { CONDITION_SYMBOL, number, time } from '../format';
import { RuleBacktestChart } from './RuleBacktestChart';
import { useSession } from './session-context';

const HOUR_MS = 3_600_000;
const RANGES: { id: string; label: string; ms: number }[] = [
  { id: '24h', label: 'last 24 hours', ms: 24 * HOUR_MS },
  { id: '7d', label: 'last 7 days', ms: 7 * 24 * HOUR_MS },
  { id: '31d', label: 'last 31 days', ms: 31 * 24 * HOUR_MS },
];

const plural = (n: number | null, one: string, many = `${one}s`) => `${number(n)} ${n === 1 ? one : many}`;

/** The answer in one sentence: the chart's description and the summary under it. */
export function backtestInWords(answer: RuleBacktest, rangeLabel: string): string {
  const { rule } = answer;
  const parts = [
    `${rule.metric} ${CONDITION_SYMBOL[rule.condition] ?? rule.condition} ${number(rule.threshold, 2)} over the ${rangeLabel}`,
    `${plural(answer.evaluations, 'evaluation')} every ${number(answer.step_seconds)} s`,
    `${plural(answer.breaches, 'breach', 'breaches')}`,
    `${plural(answer.incidents.length, 'would-be incident')}`,
    answer.pages === null ? 'pages not counted (the policy no longer exists)' : `${plural(answer.pages, 'page')}`,
  ];
  if (answer.silenced > 0) parts.push(`${plural(answer.silenced, 'evaluation')} silenced by maintenance windows`);
  if (answer.gaps.length > 0)
    parts.push(
      `${plural(answer.gaps.length, 'gap')} in history (${plural(answer.missing_evaluations, 'instant')} without a reading)`,
    );
  return `${parts.join(', ')}.`;
}

interface Props {
  /** The editor's rule as typed now. */
  draft: () => AlertRuleBody;
  /** Field errors the API gave for the draft, with the editor's paths (`/threshold`, not `/rule/threshold`). */
  onRefused: (errors: FieldProblem[]) => void;
}

export function RuleBacktestPanel({ draft, onRefused }: Props) {
  const { calls } = useSession();
  const [range, setRange] = useState(RANGES[0]!.id);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<{ answer: RuleBacktest; rangeLabel: string } | undefined>(undefined);
  const [message, setMessage] = useState<string | undefined>(undefined);

  const run = async () => {
    const chosen = RANGES.find((r) => r.id === range)!;
    const until = Math.floor(Date.now() / 60_000) * 60_000;
    setRunning(true);
    setMessage(undefined);
    onRefused([]);
    try {
      const answer = await calls.backtestRule({
        rule: draft(),
        since: new Date(until - chosen.ms).toISOString(),
        until: new Date(until).toISOString(),
        include_readings: true,
      });
      setResult({ answer, rangeLabel: chosen.label });
    } catch (failure) {
      setResult(undefined);
      if (failure instanceof ApiError && failure.status === 429) {
        setMessage(`Busy: ${failure.message}. Try again in ${failure.retryAfterSeconds ?? 1} s.`);
      } else if (failure instanceof ApiError) {
        const own = failure.errors
          .filter((e) => e.path.startsWith('/rule/'))
          .map((e) => ({ ...e, path: e.path.slice('/rule'.length) }));
        onRefused(own);
        const rest = failure.errors.filter((e) => !e.path.startsWith('/rule/'));
        setMessage(
          own.length > 0 && rest.length === 0
            ? 'Not run: the rule has errors, see the fields marked.'
            : [failure.message, ...rest.map((e) => `${e.path}: ${e.message}`)].join(' — '),
        );
      } else {
        setMessage((failure as Error).message);
      }
    } finally {
      setRunning(false);
    }
  };

  const answer = result?.answer;
  const words = result ? backtestInWords(result.answer, result.rangeLabel) : '';
  return (
    <section
      class="rule-backtest"
      aria-labelledby="rule-backtest-title"
      data-testid="rule-backtest"
      data-state={running ? 'running' : answer ? 'answered' : 'idle'}
      data-since={answer?.since}
      data-until={answer?.until}
    >
      <h3 id="rule-backtest-title">Would it have fired?</h3>
      <p class="muted">
        Replays the rule as typed (unsaved) over recorded metric history with the evaluator's own decision. Nothing is
        saved or sent.
      </p>
      <div class="backtest-controls">
        <label>
          Range
          <select
            name="backtest_range"
            value={range}
            onChange={(e) => setRange((e.currentTarget as HTMLSelectElement).value)}
          >
            {RANGES.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" class="button" disabled={running} onClick={() => void run()}>
          {running ? 'Running backtest…' : 'Run backtest'}
        </button>
      </div>
      {message ? (
        <p class="error" role="alert" data-testid="backtest-message">
          {message}
        </p>
      ) : null}
      {answer ? (
        <div aria-live="polite">
          <RuleBacktestChart answer={answer} description={words} />
          <p class="backtest-legend muted">
            Line: the reading; dashed: the threshold; shaded: would-be incidents; hatched: no history.
          </p>
          <p data-testid="backtest-summary">{words}</p>
          <dl class="backtest-counts" data-testid="backtest-counts">
            <div>
              <dt>Evaluations</dt>
              <dd data-count="evaluations">{number(answer.evaluations)}</dd>
            </div>
            <div>
              <dt>Breaches</dt>
              <dd data-count="breaches">{number(answer.breaches)}</dd>
            </div>
            <div>
              <dt>Incidents</dt>
              <dd data-count="incidents">{number(answer.incidents.length)}</dd>
            </div>
            <div>
              <dt>Pages</dt>
              <dd data-count="pages">{answer.pages === null ? 'not counted' : number(answer.pages)}</dd>
            </div>
            {answer.silenced > 0 ? (
              <div>
                <dt>Silenced</dt>
                <dd data-count="silenced">{number(answer.silenced)}</dd>
              </div>
            ) : null}
          </dl>
          {answer.incidents.length > 0 ? (
            <div class="backtest-incidents" tabIndex={0} role="region" aria-labelledby="backtest-incidents-title">
              <h4 id="backtest-incidents-title">Would-be incidents</h4>
              <table class="grid" data-testid="backtest-incidents" aria-labelledby="backtest-incidents-title">
                <thead>
                  <tr>
                    <th>Started</th>
                    <th>Ended</th>
                    <th>Peak</th>
                    <th>Cluster</th>
                  </tr>
                </thead>
                <tbody>
                  {answer.incidents.map((i) => (
                    <tr key={i.started_at}>
                      <td data-label="Started">{time(i.started_at)}</td>
                      <td data-label="Ended">{i.ended_at ? time(i.ended_at) : 'still open at the end'}</td>
                      <td data-label="Peak">{number(i.peak_value, 2)}</td>
                      <td data-label="Cluster">{i.cluster_id ?? 'all clusters'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p data-testid="backtest-no-incidents">It would not have opened an incident.</p>
          )}
          {answer.silenced_by.length > 0 ? (
            <p>
              Silenced by{' '}
              {answer.silenced_by.map((w) => `${w.name} (${plural(w.evaluations, 'evaluation')})`).join(', ')}.
            </p>
          ) : null}
          <p data-testid="backtest-gaps">
            {answer.gaps.length === 0
              ? 'No gaps: every instant had recorded history.'
              : `No recorded history ${answer.gaps.map((g) => `from ${time(g.from)} to ${time(g.to)}`).join('; ')}: nothing was decided there.`}
          </p>
          <ul class="backtest-notes">
            {answer.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
          <p class="muted">
            History from{' '}
            {answer.source === 'simulator'
              ? 'the simulated warehouse'
              : "the relational store's mirrored cluster_metrics"}{' '}
            ({answer.source}).
          </p>
        </div>
      ) : null}
    </section>
  );
}
