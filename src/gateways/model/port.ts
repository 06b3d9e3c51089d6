/**
 * The model port: one Messages API call (a turn of the agent loop). The request and answer are
 * the Messages API's own shapes, so the loop speaks the protocol the production adapter (the
 * Anthropic SDK) sends; tests and the benchmark pass scripted implementations.
 */
import type { Message, MessageParam, Tool, ToolChoice } from '@anthropic-ai/sdk/resources/messages';

export interface ModelRequest {
  model: string;
  max_tokens: number;
  system: string;
  messages: MessageParam[];
  tools: Tool[];
  tool_choice?: ToolChoice;
  /** Omitted when the operator chose `ASSISTANT_TEMPERATURE=omit` (models that refuse the field). */
  temperature?: number;
}

export type { Message as ModelMessage, MessageParam, Tool as ModelTool };

export interface ModelCallOptions {
  /** The whole answer's deadline: aborting it abandons the call. */
  signal: AbortSignal;
  /** Time left for this call (the SDK's own timeout, so a silent provider cannot hold the loop). */
  timeoutMs: number;
}

export interface ModelPort {
  createMessage(request: ModelRequest, options: ModelCallOptions): Promise<Message>;
}

export type ModelFailure = 'timeout' | 'unavailable' | 'refused';

/**
 * A call that produced no message. `timeout`: no answer in time; `unavailable`: the provider
 * failed (5xx, overloaded, rate limited, unreachable); `refused`: it rejected the request (bad key,
 * invalid request such as a temperature the model does not take). `detail` is safe to show: a
 * status and the provider's error type, never the key or a stack.
 */
export class ModelCallError extends Error {
  constructor(
    readonly failure: ModelFailure,
    readonly detail: string,
    /** The provider's own message, for the log only. */
    readonly providerMessage?: string,
  ) {
    super(`model call ${failure}: ${detail}`);
    this.name = 'ModelCallError';
  }
}
