/**
 * One rule backtest: the instants the evaluator would have ticked at, the history at each of them
 * from one source, the evaluator's decisions replayed over it (replay.ts), and the pages each
 * would-be incident's escalation would have sent (pages.ts). Instants after `now` are not history:
 * they are missing, like any other instant nobody recorded.
 */
import { metricWindowMinutes } from '../process/evaluation-decision.js';
import type { MetricHistorySource } from '../gateways/warehouse/metric-history-port.js';
import { maintenanceTimeline, type BacktestWindow } from './maintenance-timeline.js';
import { pagesFor, type PagedPolicy } from './pages.js';
import type { ReadFailureSettings } from '../process/read-failure-decision.js';
import { replayReadFailures } from './read-failure-replay.js';
import { replayInstants, replayRule, type ReplayedRule } from './replay.js';

export interface BacktestRule extends ReplayedRule {
  /** null: an unsaved rule (a window naming rule ids never matches it). */
  id: string | null;
  envId: string;
  clusterId: string | null;
  metric: string;
  severity: string;
  /** What the rule does while reads fail (a rule stored before these settings: none pages). */
  readFailure?: ReadFailureSettings;
}

export interface BacktestRequest {
  rule: BacktestRule;
  /** null: the rule's policy no longer exists; pages are not counted. */
  policy: PagedPolicy | null;
  since: number;
  until: number;
  stepMs: number;
  now: number;
  /** The tenant's maintenance windows that can overlap the range, ended ones with their `endedAt`. */
  windows?: readonly BacktestWindow[];
  /** Also answer every instant's reading (for a chart of metric against threshold). */
  includeReadings?: boolean;
}

export interface BacktestIncident {
  started_at: string;
  ended_at: string | null;
  peak_value: number;
  cluster_id: string | null;
  stages_fired: number | null;
  pages: number | null;
}

export interface BacktestAnswer {
  source: MetricHistorySource['name'];
  step_seconds: number;
  evaluations: number;
  breaches: number;
  missing_evaluations: number;
  /** Evaluations a maintenance window silenced (counted in `evaluations` too). */
  silenced: number;
  /** The windows that silenced any, with how many each. */
  silenced_by: { window_id: string; name: string; evaluations: number }[];
  incidents: BacktestIncident[];
  /** When the rule's read-failure incident would have opened and closed (gaps are failed reads). */
  read_failure_incidents: { started_at: string; ended_at: string | null }[];
  pages: number | null;
  gaps: { from: string; to: string }[];
  notes: string[];
  /** Only when asked: each instant and its reading (null inside a gap). */
  readings?: { at: string; value: number | null }[];
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function runBacktest(source: MetricHistorySource, request: BacktestRequest): Promise<BacktestAnswer> {
  const { rule, policy, since, until, stepMs, now } = request;
  const instants = replayInstants(since, until, stepMs);
  const past = instants.filter((at) => at <= now);
  const history = await source.read({
    envId: rule.envId,
    clusterId: rule.clusterId,
    metric: rule.metric,
    windowMinutes: metricWindowMinutes(rule.windowMinutes),
    instants: past,
  });
  const readings = instants.map((_, i) => (i < past.length ? history.readings[i]! : null));
  const windows = request.windows ?? [];
  const timeline = maintenanceTimeline(
    windows,
    { ruleId: rule.id ?? '', clusterId: rule.clusterId, severity: rule.severity },
    since,
    until,
  );
  const replay = replayRule(rule, instants, readings, until, (at) => timeline.at(at));
  const incidents = replay.incidents.map((incident): BacktestIncident => {
    const count = policy ? pagesFor(policy, incident.startedAt, incident.endedAt, until) : null;
    return {
      started_at: iso(incident.startedAt),
      ended_at: incident.endedAt === null ? null : iso(incident.endedAt),
      peak_value: incident.peakValue,
      cluster_id: rule.clusterId,
      stages_fired: count?.stagesFired ?? null,
      pages: count?.pages ?? null,
    };
  });
  const notes = [
    ...history.notes,
    'nobody acknowledges in a backtest: every escalation runs until its incident resolves or the range ends',
  ];
  if (!policy) notes.push("the rule's escalation policy no longer exists: pages are not counted");
  const held = replay.incidents.some((incident) =>
    timeline.spans.some((span) => span.start < (incident.endedAt ?? until + 1) && span.end > incident.startedAt),
  );
  if (held && policy)
    notes.push(
      "a maintenance window was active while an incident was open: live, its escalation's remaining stages would have been held until the window ended; pages here are counted without that hold",
    );
  if (rule.id === null && windows.some((window) => window.matcher.ruleIds.length > 0 && !window.matcher.allRules)) {
    notes.push('windows that name rule ids do not match an unsaved rule');
  }
  if (past.length < instants.length) notes.push(`instants after ${iso(now)} are in the future and not evaluated`);
  return {
    source: source.name,
    step_seconds: stepMs / 1000,
    evaluations: replay.evaluations,
    breaches: replay.breaches,
    missing_evaluations: replay.missing,
    silenced: replay.silenced,
    silenced_by: [...replay.silencedBy].map(([id, evaluations]) => ({
      window_id: id,
      name: windows.find((window) => window.id === id)?.name ?? id,
      evaluations,
    })),
    incidents,
    read_failure_incidents: rule.readFailure
      ? replayReadFailures(rule.readFailure, past, readings.slice(0, past.length)).map((incident) => ({
          started_at: iso(incident.startedAt),
          ended_at: incident.endedAt === null ? null : iso(incident.endedAt),
        }))
      : [],
    pages: policy ? incidents.reduce((sum, incident) => sum + incident.pages!, 0) : null,
    gaps: replay.gaps.map((gap) => ({ from: iso(gap.from), to: iso(gap.to) })),
    notes,
    ...(request.includeReadings ? { readings: instants.map((at, i) => ({ at: iso(at), value: readings[i]! })) } : {}),
  };
}
