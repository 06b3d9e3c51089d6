/** The alert rule as clients send it (snake_case, SPEC.md Alert rule), and its mapping to event data. */
import { z } from 'zod';
import type { AlertRuleData } from '../src/events/alert-rule.js';

export const CONDITIONS = ['gt', 'lt', 'gte', 'lte', 'eq'] as const;
export const RULE_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;

export const alertRuleBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullable().optional(),
  metric: z.string().min(1),
  condition: z.enum(CONDITIONS),
  threshold: z.number().refine(Number.isFinite, 'must be a finite number'),
  evaluation_window_minutes: z.number().int().min(1).max(1440),
  severity: z.enum(RULE_SEVERITIES),
  escalation_policy_id: z.uuid(),
  cluster_id: z.string().trim().min(1).max(200).nullable().optional(),
  is_enabled: z.boolean().default(true),
});

export type AlertRuleBody = z.infer<typeof alertRuleBodySchema>;

/** PATCH: any subset of the fields; the merged rule is validated as a whole. */
export const alertRulePatchSchema = alertRuleBodySchema.partial().extend({ is_enabled: z.boolean().optional() });

export const toRuleData = (ruleId: string, envId: string, body: AlertRuleBody): AlertRuleData => ({
  ruleId,
  name: body.name,
  description: body.description ?? null,
  metric: body.metric,
  condition: body.condition,
  threshold: body.threshold,
  evaluationWindowMinutes: body.evaluation_window_minutes,
  severity: body.severity,
  escalationPolicyId: body.escalation_policy_id,
  clusterId: body.cluster_id ?? null,
  isEnabled: body.is_enabled,
  envId,
});

export const toRuleBody = (rule: AlertRuleData): AlertRuleBody => ({
  name: rule.name,
  description: rule.description,
  metric: rule.metric,
  condition: rule.condition,
  threshold: rule.threshold,
  evaluation_window_minutes: rule.evaluationWindowMinutes,
  severity: rule.severity,
  escalation_policy_id: rule.escalationPolicyId,
  cluster_id: rule.clusterId,
  is_enabled: rule.isEnabled,
});
