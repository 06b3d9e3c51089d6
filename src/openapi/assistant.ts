/** The analytics assistant: POST /ask, the tool listing and its health (src/assistant/routes.ts). */
import { z } from 'zod';
import { askBodySchema } from '../contract/bodies/assistant.js';
import { assistantAnswerSchema } from '../contract/assistant.js';
import type { OperationDoc } from './operation.js';

const tag = 'Analytics assistant';

const listingSchema = z.object({
  count: z.number().int(),
  tools: z.array(
    z.object({
      name: z.string(),
      family: z.enum(['warehouse', 'cost', 'docs']),
      description: z.string(),
      input_schema: z.record(z.string(), z.unknown()).meta({ description: 'the JSON schema the model sees' }),
      example: z.unknown(),
    }),
  ),
});

const component = z.record(z.string(), z.unknown());
const healthSchema = z.object({
  model: component.meta({
    description:
      '`status`: configured | not configured, the model name, the Messages API `api_version` and the `temperature` sent (null, with `temperature_detail`, when none is)',
  }),
  warehouse: component.meta({ description: "the caller's environment: `status` up | down, `mode`" }),
  cost_store: component.meta({
    description:
      '`adapter`: embedded | athena; for athena `database`, `workgroup` and `cur_version` (auto | 1 | 2, the setting)',
  }),
  vector_store: component.meta({ description: '`adapter`: embedded | milvus, `status`, indexed chunks' }),
  tools: z.number().int(),
});

const envelope = (data: z.ZodType, description: string) =>
  ({ kind: 'envelope', status: 200, description, data }) as const;

export const assistantOperations: OperationDoc[] = [
  {
    method: 'post',
    path: '/ask',
    tag,
    summary: 'Ask the analytics assistant a question',
    description:
      "Runs the tool-using agent over the caller's environment (tenant and environment come from the token, never from the prompt).",
    body: askBodySchema,
    problems: {
      503: 'The assistant is not configured (no ANTHROPIC_API_KEY), or the model provider is unavailable',
      504: 'The answer or the model took too long; the problem carries `tools_used`, `usage` and `rounds` so far',
    },
    response: {
      ...envelope(
        assistantAnswerSchema,
        "The answer and how it was reached (SPEC.md's top-level `response`, no envelope)",
      ),
      bare: true,
    },
  },
  {
    method: 'get',
    path: '/ask/tools',
    tag,
    summary: "The assistant's tools with their input schemas",
    response: envelope(listingSchema, 'The tools'),
  },
  {
    method: 'get',
    path: '/ask/health',
    tag,
    summary: "The assistant's model, warehouse, cost store and vector store",
    response: envelope(healthSchema, "Each component's state"),
  },
];
