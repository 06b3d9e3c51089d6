/**
 * What clients send to the incident commands (commands/incident-routes.ts parses with these; the
 * API document shows them; the console's calls are typed from them).
 */
import { z } from 'zod';

/** POST /incidents/{id}/acknowledge: no fields (an empty body or none). */
export const acknowledgeIncidentBodySchema = z.strictObject({});
/** POST /incidents/{id}/resolve: an optional note, kept on the incident. */
export const resolveIncidentBodySchema = z.strictObject({ note: z.string().trim().min(1).max(10_000).optional() });
/** POST /incidents/{id}/notes. */
export const incidentNoteBodySchema = z.strictObject({ text: z.string().trim().min(1).max(10_000) });
