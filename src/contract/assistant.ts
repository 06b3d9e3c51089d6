/**
 * The assistant's answer (POST /ask: SPEC.md's top-level `response` and what it took, no envelope).
 * Written once here: src/openapi/assistant.ts documents it, the console imports its types.
 */
import { z } from 'zod';

export const toolUsedSchema = z.object({
  name: z.string(),
  input: z.unknown().meta({ description: 'the input the model gave the tool' }),
  ok: z.boolean(),
  ms: z.number(),
  error: z.string().nullable().meta({
    description: 'null, or why the call failed (a reason code: invalid_input, unknown_tool, timeout, failed, …)',
  }),
});

export const usageSchema = z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() });

export const assistantAnswerSchema = z.object({
  response: z.string().meta({ description: 'the answer, Markdown, as the model wrote it' }),
  tools_used: z.array(toolUsedSchema),
  usage: usageSchema,
  rounds: z.number().int().meta({ description: 'model calls made, at most ASSISTANT_MAX_ROUNDS (8)' }),
  stop_reason: z.string().meta({ description: "the model's stop reason, or `round_limit`" }),
});
export type AssistantAnswer = z.infer<typeof assistantAnswerSchema>;
export type AssistantToolUse = z.infer<typeof toolUsedSchema>;
