/**
 * A tick's metric readings: each distinct warehouse read (environment, cluster, metric, window;
 * the rules' share key, src/events/rule-shares.ts) is asked of the metric registry once, however
 * many rules share it, and each rule gets its read's result.
 *
 * One request per rule (100,000 requests, each keyed by JSON in the registry twice) was a
 * measurable part of a tick; the key is now made once per rule document, and the documents live
 * in memory across ticks (src/process/rule-mirror.ts): a changed rule is a new document.
 */
import type { AlertRuleDoc } from '../../projections/alert-rules.js';
import { ruleShareKey } from '../events/rule-shares.js';
import type { MetricReadResult } from '../gateways/warehouse/metrics/provider.js';
import type { MetricRegistry } from '../gateways/warehouse/metrics/registry.js';
import type { MetricRequest } from '../gateways/warehouse/port.js';
import { metricWindowMinutes } from './evaluation-decision.js';

const readKeys = new WeakMap<AlertRuleDoc, string>();

function readKeyOf(rule: AlertRuleDoc): string {
  let key = readKeys.get(rule);
  if (key === undefined) readKeys.set(rule, (key = ruleShareKey(rule)));
  return key;
}

/** Each rule's reading, in the rules' order, and how many provider reads that took. */
export async function readEachOnce(
  metrics: MetricRegistry,
  rules: readonly AlertRuleDoc[],
): Promise<{ readings: MetricReadResult[]; providerReads: number }> {
  const readsBefore = metrics.providerReads;
  const keys = rules.map(readKeyOf);
  const requests = new Map<string, MetricRequest>();
  for (const [index, rule] of rules.entries()) {
    const key = keys[index]!;
    if (!requests.has(key))
      requests.set(key, {
        envId: rule.envId,
        clusterId: rule.clusterId ?? undefined,
        metric: rule.metric,
        windowMinutes: metricWindowMinutes(rule.evaluationWindowMinutes),
      });
  }
  const results = await metrics.readMany([...requests.values()]);
  const byKey = new Map<string, MetricReadResult>();
  let index = 0;
  for (const key of requests.keys()) byKey.set(key, results[index++]!);
  return { readings: keys.map((key) => byKey.get(key)!), providerReads: metrics.providerReads - readsBefore };
}
