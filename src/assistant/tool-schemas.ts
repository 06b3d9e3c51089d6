/**
 * What the model (and GET /api/v1/ask/tools) sees of a tool: its name, description and the JSON
 * schema of its input, generated from the tool's zod schema (zod 4's `z.toJSONSchema`), so the
 * schema the model writes against and the one its input is checked with cannot drift apart.
 */
import { z } from 'zod';
import type { ModelTool } from '../gateways/model/port.js';
import type { AssistantTool } from './tool.js';

export type InputJsonSchema = ModelTool['input_schema'];

export function inputJsonSchema(tool: AssistantTool): InputJsonSchema {
  // `io: 'input'`: defaults make fields optional for the caller; the `$schema` URI means nothing to the model.
  const { $schema: _dialect, ...schema } = z.toJSONSchema(tool.input, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  if (schema.type !== 'object') throw new Error(`tool ${tool.name}: input must be an object schema`);
  return schema as InputJsonSchema;
}

export function modelTools(tools: AssistantTool[]): ModelTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: inputJsonSchema(tool) }));
}
