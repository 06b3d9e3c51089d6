/**
 * `npx tsx bench/event-chain.ts`: what the stream chain adds to an append, per event: canonical JSON
 * of data and metadata instead of JSON.stringify (main thread, before the group commit) and one
 * SHA-256 (writer thread, inside it), for an IncidentTriggered-sized event.
 */
import { randomUUID } from 'node:crypto';
import { canonicalJson, chainHashOfCanonical } from '../src/eventstore/event-chain.mjs';

const data = {
  incidentId: randomUUID(),
  ruleId: randomUUID(),
  ruleName: 'orders replication lag',
  ordinal: 3,
  currentValue: 123.5,
  severity: 'critical',
  metric: 'replication_lag_seconds',
  condition: 'gt',
  threshold: 60,
  envId: randomUUID(),
  clusterId: null,
  escalationPolicyId: randomUUID(),
  triggeredAt: new Date().toISOString(),
};
const metadata = {
  tenantId: randomUUID(),
  actor: 'system:evaluator',
  correlationId: randomUUID(),
  causationId: randomUUID(),
  occurredAt: new Date().toISOString(),
};
const ROUNDS = 200_000;

function microseconds(label: string, body: () => unknown): number {
  for (let i = 0; i < 20_000; i++) body();
  const samples: number[] = [];
  for (let run = 0; run < 5; run++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < ROUNDS; i++) body();
    samples.push(Number(process.hrtime.bigint() - started) / ROUNDS / 1000);
  }
  const median = samples.sort((a, b) => a - b)[2]!;
  console.log(`${label.padEnd(48)} ${median.toFixed(2)} µs`);
  return median;
}

const plain = microseconds(
  'JSON.stringify(data) + JSON.stringify(metadata)',
  () => JSON.stringify(data) + JSON.stringify(metadata),
);
const canonical = microseconds(
  'canonicalJson(data) + canonicalJson(metadata)',
  () => canonicalJson(data) + canonicalJson(metadata),
);
const [dataJson, metadataJson] = [canonicalJson(data), canonicalJson(metadata)];
const previous = 'a'.repeat(64);
const hash = microseconds('chainHashOfCanonical (one SHA-256)', () =>
  chainHashOfCanonical(`incident-${data.incidentId}`, 3, 'IncidentTriggered', dataJson, metadataJson, previous),
);
console.log(
  `added per event: ${(canonical - plain).toFixed(2)} µs on the main thread, ${hash.toFixed(2)} µs on the writer thread (${dataJson.length + metadataJson.length} bytes of JSON)`,
);
