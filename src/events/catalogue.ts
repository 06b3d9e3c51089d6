/**
 * The event catalogue: one zod schema per event type. Every event is validated against it when
 * appended and when read. A schema change adds an upcaster here (old shape → new shape on read);
 * stored events are never rewritten.
 */
import { z } from 'zod';
import { actionLinkEvents } from './action-link.js';
import { alertRuleEvents } from './alert-rule.js';
import { channelEvents } from './channel.js';
import { escalationEvents } from './escalation.js';
import { escalationPolicyEvents } from './escalation-policy.js';
import { incidentEvents } from './incident.js';
import { maintenanceWindowEvents } from './maintenance-window.js';
import { ruleEvaluationEvents } from './rule-evaluation.js';
import { groupEvents } from './group.js';
import { heartbeatEvents } from './heartbeat.js';
import { inboundAlertEvents } from './inbound-alert.js';
import { integrationEvents } from './integration.js';
import { grantHolderNameEvents } from './grant-holder-names.js';
import { roleEvents } from './role.js';
import { scheduleEvents } from './schedule.js';
import { syncJobEvents } from './sync-job.js';
import { tenantEvents } from './tenant.js';
import { userEmailEvents, userEvents } from './user.js';

const schemas: Record<string, z.ZodType<Record<string, unknown>>> = {
  ...channelEvents,
  ...escalationPolicyEvents,
  ...alertRuleEvents,
  ...incidentEvents,
  ...escalationEvents,
  ...ruleEvaluationEvents,
  ...userEvents,
  ...userEmailEvents,
  ...roleEvents,
  ...groupEvents,
  ...grantHolderNameEvents,
  ...tenantEvents,
  ...scheduleEvents,
  ...syncJobEvents,
  ...maintenanceWindowEvents,
  ...actionLinkEvents,
  ...heartbeatEvents,
  ...integrationEvents,
  ...inboundAlertEvents,
};

/** Old stored shapes → current shape, by event type. Empty until a schema first changes. */
const upcasters: Record<string, (data: Record<string, unknown>) => Record<string, unknown>> = {};

export class UnknownEventTypeError extends Error {
  override readonly name = 'UnknownEventTypeError';
}

/** Validates event data before it is appended. Throws a ZodError on invalid data. */
export function validateEventData(type: string, data: unknown): Record<string, unknown> {
  const schema = schemas[type];
  if (!schema) throw new UnknownEventTypeError(`unknown event type ${type}`);
  return schema.parse(data);
}

/** Reads stored event data: upcast to the current shape, then validate. */
export function readEventData(type: string, data: Record<string, unknown>): Record<string, unknown> {
  const upcast = upcasters[type];
  return validateEventData(type, upcast ? upcast(data) : data);
}
