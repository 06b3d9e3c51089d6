/**
 * What clients send to the incident commands (commands/incident-routes.ts parses with these; the
 * API document shows them; the console's calls are typed from them).
 */
import { z } from 'zod';
import { SEVERITIES } from '../vocabulary.js';

/** POST /incidents/{id}/acknowledge: no fields (an empty body or none). */
export const acknowledgeIncidentBodySchema = z.strictObject({});
/** POST /incidents/{id}/resolve: an optional note, kept on the incident. */
export const resolveIncidentBodySchema = z.strictObject({ note: z.string().trim().min(1).max(10_000).optional() });
/** POST /incidents/{id}/notes. */
export const incidentNoteBodySchema = z.strictObject({ text: z.string().trim().min(1).max(10_000) });

/**
 * POST /incidents: paging by hand. A person opens an incident on an escalation policy of the
 * tenant, which pages as any other (source `manual`).
 */
export const manualIncidentBodySchema = z.strictObject({
  title: z.string().trim().min(1).max(1024),
  severity: z.enum(SEVERITIES).default('high'),
  details: z.string().trim().max(2000).optional().meta({ description: "why, kept as the incident's `detail`" }),
  escalation_policy_id: z.uuid().meta({ description: 'an escalation policy of the tenant: who is paged' }),
});
export type ManualIncidentBody = z.infer<typeof manualIncidentBodySchema>;
