/**
 * How a cluster splits alert rules among its members (src/cluster/membership.ts). Rules are
 * grouped by the warehouse read they need (environment, cluster, metric, window): the rules of one
 * read always land on the same member, so the whole cluster makes one warehouse read per
 * combination and tick (a Data API statement is billed), not one per member. The groups are
 * hashed into RULE_SHARE_BUCKETS buckets, kept on each rule's read-model document, and members
 * own buckets: a member reads only its own rules' documents (`shareBucket $in [...]`), not every
 * rule's to keep a third of them.
 */
import { createHash } from 'node:crypto';

export const RULE_SHARE_BUCKETS = 1024;

export interface RuleReadScope {
  envId: string;
  clusterId?: string | null;
  metric: string;
  evaluationWindowMinutes: number;
}

/** The warehouse read a rule needs (a window of 0 reads the last minute, as a window of 1 does). */
export function ruleShareKey(rule: RuleReadScope): string {
  return JSON.stringify([rule.envId, rule.clusterId ?? null, rule.metric, Math.max(1, rule.evaluationWindowMinutes)]);
}

/** The bucket of a rule's read (stable: a hash of the share key). */
export function ruleShareBucket(rule: RuleReadScope): number {
  return createHash('sha256').update(ruleShareKey(rule)).digest().readUInt32BE(0) % RULE_SHARE_BUCKETS;
}

/** The work key a member owns a bucket by. */
export const ruleBucketKey = (bucket: number) => `rules:${bucket}`;
