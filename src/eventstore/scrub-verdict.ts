/**
 * What a scrub's result means (pure): which stores /health reports damaged, in words naming the
 * file and what recovers it, and whether the scrub was clean (the metric of the last clean scrub).
 * The scrub itself (log-scrub-worker.ts, log-scrub.ts) only gathers what SQLite's page check and
 * the chain walk found.
 */
import type { PageCheck } from '../sqlite/page-check.js';
import type { BreakAt } from './chain-walk.js';
import { describeChainBreak } from './recorded-chain.js';

/** The checks of /health a finding takes down. */
export type ScrubbedStore = 'event_store' | 'read_store';

/** What the walk over the log's chains found; `failed` when it could not read on (`damaged`: a damaged page stopped it). */
export type ChainScrub =
  | { events: number; breakCount: number; breaks: BreakAt[] }
  | { failed: string; damaged: boolean };

/** What one scrub found. `chain` is absent when the log's pages were damaged (the walk would only meet them again). */
export interface ScrubResult {
  finishedAt: Date;
  pages: PageCheck[];
  chain?: ChainScrub;
}

/** How each checked file (and the log) is named on /health, and what recovers it. */
export interface ScrubTarget {
  store: ScrubbedStore;
  name: string;
  recovery: string;
}

export interface ScrubFinding {
  store: ScrubbedStore;
  name: string;
  message: string;
}

export interface ScrubVerdict {
  /** Every page intact and every chain whole: the time of the last clean scrub moves. */
  clean: boolean;
  findings: ScrubFinding[];
  /** Set when a part could not be checked for a reason other than damage (a store down): not clean, no finding. */
  incomplete?: string;
}

/** What to do about a chain changed outside the platform: it is evidence, so only a copy from before the change restores it. */
export const CHAIN_BREAK_RECOVERY =
  'it was changed outside the platform: run `npm run verify` for every break, and restore it from a backup taken before the change (docs/operations.md)';

const more = (count: number) => (count > 1 ? ` and ${count - 1} more` : '');

export function judgeScrub(
  result: ScrubResult,
  targets: { files: Record<string, ScrubTarget>; log: ScrubTarget },
): ScrubVerdict {
  const at = `found by the scrub at ${result.finishedAt.toISOString()}`;
  const findings: ScrubFinding[] = [];
  for (const check of result.pages) {
    if (check.problems.length === 0) continue;
    const target = targets.files[check.file] ?? {
      store: 'event_store',
      name: check.file,
      recovery: 'see "Damaged files" in docs/operations.md',
    };
    findings.push({
      store: target.store,
      name: target.name,
      message: `${target.name} is damaged (${at}: ${check.problems[0]}${more(check.problems.length)}); ${target.recovery}`,
    });
  }
  const { chain } = result;
  const { log } = targets;
  let incomplete: string | undefined;
  if (chain && 'failed' in chain) {
    const alreadyNamed = findings.some((finding) => finding.name === log.name);
    if (!chain.damaged) incomplete = `the chain walk stopped: ${chain.failed}`;
    else if (!alreadyNamed)
      findings.push({
        store: log.store,
        name: log.name,
        message: `${log.name} is damaged (${at}: ${chain.failed}); ${log.recovery}`,
      });
  } else if (chain && chain.breakCount > 0) {
    findings.push({
      store: log.store,
      name: log.name,
      message: `${log.name}'s hash chain is broken (${at}: ${describeChainBreak(chain.breaks[0]!)}${more(chain.breakCount)}); ${CHAIN_BREAK_RECOVERY}`,
    });
  }
  return { clean: findings.length === 0 && incomplete === undefined, findings, ...(incomplete ? { incomplete } : {}) };
}

/** The findings /health reports under one check, in one sentence per file (undefined: nothing found). */
export function findingsOf(verdict: ScrubVerdict | undefined, store: ScrubbedStore): string | undefined {
  const messages = (verdict?.findings ?? []).filter((finding) => finding.store === store).map((f) => f.message);
  return messages.length === 0 ? undefined : messages.join('; also ');
}
