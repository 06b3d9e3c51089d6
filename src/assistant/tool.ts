/**
 * One tool the analytics assistant's model may call. Every tool takes typed input (a zod schema,
 * from which the JSON schema the model sees is generated) and answers plain JSON that its own
 * `output` schema describes; tests hold every answer against that schema.
 *
 * The scope comes from the caller's token, never from the model: a tool's input has no tenant or
 * environment field, so a prompt cannot reach another tenant's or environment's data.
 */
import type { z } from 'zod';

export interface ToolScope {
  tenantId: string;
  /** The environment the token is scoped to: every warehouse, cost and document question is about it. */
  envId: string;
  /** The answer's clock: tools that speak of "now" or "the last N days" read it from here. */
  now: Date;
  /** Aborted when the tool's own timeout or the whole answer's timeout passes. */
  signal: AbortSignal;
}

export type ToolFamily = 'warehouse' | 'cost' | 'docs';

export interface AssistantTool<Input extends z.ZodType = z.ZodType, Output extends z.ZodType = z.ZodType> {
  /** snake_case, unique among the tools; what the model calls. */
  name: string;
  family: ToolFamily;
  /** What the tool answers and when to use it, written for the model. */
  description: string;
  input: Input;
  output: Output;
  /** A valid input, used by the tool listing and by the test that makes the model call every tool. */
  example: z.input<Input>;
  run(input: z.output<Input>, scope: ToolScope): Promise<z.output<Output>>;
}

/** A tool whose input and output types are checked where it is defined, then kept in one list. */
export function defineTool<Input extends z.ZodType, Output extends z.ZodType>(
  tool: AssistantTool<Input, Output>,
): AssistantTool {
  return tool as unknown as AssistantTool;
}
