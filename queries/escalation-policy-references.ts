/**
 * Referential integrity of escalation policies, checked against read models before a command runs:
 * what a policy points at must exist in the caller's tenant, and a policy that an enabled alert
 * rule starts cannot be deleted. Read models lag the log by at most the read-your-writes bound, and
 * the check and the append are not one transaction: two concurrent requests (delete a channel,
 * create a policy naming it) can both pass. Targets are resolved at notification time (SPEC.md),
 * so whoever resolves them must still expect a target that has vanished since.
 */
import { ALERT_RULES } from '../projections/alert-rules.js';
import { CHANNELS } from '../projections/channels.js';
import { GROUPS } from '../projections/groups.js';
import { SCHEDULES } from '../projections/schedules.js';
import { USERS } from '../projections/users.js';
import type { EscalationStage, TargetType } from '../src/events/escalation-policy.js';
import type { ProblemFieldError } from '../src/http/problem.js';
import type { Doc, ReadModelReader } from '../src/readstore/port.js';

/** Where each target type lives. */
const CHECKED: Record<TargetType, { collection: string; noun: string; counts: (doc: Doc) => boolean }> = {
  user: { collection: USERS, noun: 'user', counts: (doc) => doc.removed !== true },
  group: { collection: GROUPS, noun: 'group', counts: () => true },
  channel: { collection: CHANNELS, noun: 'notification channel', counts: () => true },
  schedule: { collection: SCHEDULES, noun: 'schedule', counts: () => true },
};

/** Ids of the given type that exist in the tenant, from one query per collection. */
async function existingIds(
  reader: ReadModelReader,
  tenantId: string,
  type: TargetType,
  ids: string[],
): Promise<Set<string>> {
  const source = CHECKED[type];
  if (!source || ids.length === 0) return new Set(ids);
  const docs = await reader.find(source.collection, { tenantId, id: { $in: ids } });
  return new Set(docs.filter(source.counts).map((doc) => doc.id));
}

/**
 * One error per target that names a user, group or channel missing from the tenant (another
 * tenant's is missing too: its existence is never revealed). Empty when every target exists.
 */
export async function unknownTargetErrors(
  reader: ReadModelReader,
  tenantId: string,
  stages: EscalationStage[],
): Promise<ProblemFieldError[]> {
  const idsByType = new Map<TargetType, Set<string>>();
  for (const target of stages.flatMap((stage) => stage.targets)) {
    if (!idsByType.has(target.type)) idsByType.set(target.type, new Set());
    idsByType.get(target.type)!.add(target.id);
  }
  const existing = new Map<TargetType, Set<string>>();
  for (const [type, ids] of idsByType) existing.set(type, await existingIds(reader, tenantId, type, [...ids]));

  const errors: ProblemFieldError[] = [];
  stages.forEach((stage, stageIndex) =>
    stage.targets.forEach((target, targetIndex) => {
      if (existing.get(target.type)?.has(target.id)) return;
      const noun = CHECKED[target.type]?.noun ?? target.type;
      errors.push({
        path: `/stages/${stageIndex}/targets/${targetIndex}/id`,
        message: `no ${noun} ${target.id} in this tenant`,
      });
    }),
  );
  return errors;
}

export interface RuleReference {
  id: string;
  name: string;
}

/** Enabled, undeleted alert rules of the tenant that start this policy when they trigger. */
export async function enabledRulesUsingPolicy(
  reader: ReadModelReader,
  tenantId: string,
  policyId: string,
): Promise<RuleReference[]> {
  const rules = await reader.find(
    ALERT_RULES,
    { tenantId, escalationPolicyId: policyId, isEnabled: true, deleted: { $ne: true } },
    { sort: [['name', 'asc']] },
  );
  return rules.map((rule) => ({ id: rule.id, name: String(rule.name) }));
}
