/**
 * What a tick of the evaluator reports (the bench and the tests read it), and what the tick knows
 * while it decides its rules (src/process/evaluator.ts).
 */
import type { TenantWindows } from './decide-rule.js';
import type { WindowsToken } from './quiet-decisions.js';
import type { PagingRule } from './read-failure-decision.js';

/** Each tenant's active windows, indexed once per tick. */
export type WindowsByTenant = ReadonlyMap<string, TenantWindows>;

export interface TickReport {
  rules: number;
  metricReads: number;
  triggered: number;
  resolved: number;
  errors: number;
  /** Evaluations recorded as RuleEvaluated events (the others changed nothing the history keeps). */
  recorded: number;
  /** Rules whose quiet decision of the last tick was carried over: nothing it depends on changed (src/process/quiet-decisions.ts). */
  carriedOver?: number;
  /** Incidents of clusters that cannot be read (source `rule_error`) this tick opened and resolved. */
  readFailuresOpened?: number;
  readFailuresResolved?: number;
  durationMs: number;
  /**
   * Where the tick's time went, ms: catching up with the log and re-reading the changed rules,
   * the warehouse reads, deciding every rule (and carrying out the rare actions), waiting for the
   * recorded evaluations to be projected, the read-failure incidents and orphans.
   */
  phasesMs?: { rules: number; reads: number; decide: number; recordings: number; settle: number };
}

/** What one tick knows while it evaluates its rules. */
export interface TickContext {
  tickId: string;
  now: Date;
  nowMs: number;
  /** `now` as the evaluations record it. */
  at: string;
  windows: WindowsByTenant;
  /** Each tenant's active windows as a token (src/process/quiet-decisions.ts); absent: none. */
  windowsTokens: ReadonlyMap<string, WindowsToken>;
  report: TickReport & { carriedOver: number };
  /** The appends of the recorded evaluations, each resolving to its log position (-1: failed). */
  recordings: Promise<bigint>[];
  /** The rules whose read failure pages (on_error / on_no_data `alerting`, failing long enough). */
  paging: PagingRule[];
}
