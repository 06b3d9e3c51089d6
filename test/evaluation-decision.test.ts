import test from 'ava';
import { conditionMet, decideEvaluation, type Condition } from '../src/process/evaluation-decision.js';

const conditions: [Condition, number, number, boolean][] = [
  ['gt', 45, 30, true], ['gt', 30, 30, false], ['gt', 29.9, 30, false],
  ['gte', 30, 30, true], ['gte', 29.99, 30, false],
  ['lt', 10, 30, true], ['lt', 30, 30, false],
  ['lte', 30, 30, true], ['lte', 30.01, 30, false],
  ['eq', 0.1 + 0.2, 0.3, true], ['eq', 30, 30, true], ['eq', 30.5, 30, false], ['eq', -2, -2, true],
];
for (const [condition, value, threshold, expected] of conditions) {
  test(`${value} ${condition} ${threshold} is ${expected}`, (t) => t.is(conditionMet(condition, value, threshold), expected));
}

const decisions: [string, boolean, { ok: true; value: number } | { ok: false; error: string }, string, string][] = [
  ['condition met, no active incident', false, { ok: true, value: 45 }, 'triggered', 'trigger'],
  ['condition met, an active incident', true, { ok: true, value: 45 }, 'unchanged', 'none'],
  ['condition cleared, an active incident', true, { ok: true, value: 10 }, 'resolved', 'resolve'],
  ['condition cleared, no incident', false, { ok: true, value: 10 }, 'ok', 'none'],
  ['metric unreadable, an active incident', true, { ok: false, error: 'cluster paused' }, 'error', 'none'],
  ['metric unreadable, no incident', false, { ok: false, error: 'cluster paused' }, 'error', 'none'],
];
for (const [title, hasActiveIncident, reading, outcome, action] of decisions) {
  test(`evaluation: ${title} → ${outcome}`, (t) => {
    const decision = decideEvaluation({ condition: 'gt', threshold: 30, hasActiveIncident }, reading);
    t.is(decision.outcome as string, outcome);
    t.is(decision.action as string, action);
  });
}
