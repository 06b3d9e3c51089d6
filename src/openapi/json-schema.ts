/**
 * zod → JSON Schema 2020-12 (the dialect of OpenAPI 3.1), with zod 4's own `z.toJSONSchema`.
 * Decision: no OpenAPI library (zod-to-openapi, zod-openapi) — zod renders the schemas natively,
 * and the few OpenAPI structures around them (paths, responses, components) are plain objects.
 *
 * Request bodies and query parameters are rendered as input (what a client sends: defaults are
 * optional, transforms show their input), responses as output (what the API answers; objects are
 * closed, so a field added to a response without its schema fails the response tests).
 */
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rendered } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as JsonSchema;
  // Definitions of a recursive schema would be referenced relative to the whole document.
  if ('$defs' in rendered) throw new Error('recursive schemas are not supported in the OpenAPI document');
  return rendered;
}
