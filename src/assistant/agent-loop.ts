/**
 * The agent loop: the model sees the question and the tools; while it answers with `tool_use`, the
 * loop runs the calls (tool-call.ts) and sends the results back; its first answer without tool
 * calls is the answer, returned as is. The model client is injected (gateways/model/port.ts), so
 * the loop runs the same against Anthropic, the test stand-in or the benchmark's instant model.
 *
 * Bounds: at most `maxRounds` model calls (a round is one call and the tool calls it asks for);
 * the last allowed round is sent with `tool_choice: none`, so the model must answer in words.
 * A deadline for each tool call (its failure goes back to the model) and one for the whole answer
 * (which ends the loop with `AgentStopped`, carrying what was done so far).
 */
import type { ContentBlock, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { ModelCallError, type ModelPort, type ModelRequest } from '../gateways/model/port.js';
import { deadline } from './deadline.js';
import { systemPrompt } from './system-prompt.js';
import type { AssistantTool } from './tool.js';
import { callTool, type ToolCallContext, type ToolUsed } from './tool-call.js';
import { MAX_TOOL_OUTPUT_CHARS } from './tool-output-cap.js';
import { modelTools } from './tool-schemas.js';

export const MAX_ROUNDS = 8;

export interface AgentSettings {
  model: string;
  /** `null`: the request carries no temperature (for models that refuse the field). */
  temperature: number | null;
  maxTokens: number;
  maxRounds: number;
  toolTimeoutMs: number;
  answerTimeoutMs: number;
  maxToolOutputChars?: number;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

export interface AgentProgress {
  tools_used: ToolUsed[];
  usage: Usage;
  rounds: number;
}

export interface AgentAnswer extends AgentProgress {
  /** The model's final text, as it wrote it (Markdown). */
  response: string;
  /** The model's stop reason, or `round_limit` when it still wanted tools after the last round. */
  stop_reason: string;
}

export type AgentStopReason = 'timeout' | 'model_unavailable' | 'model_refused' | 'cancelled';

/** The loop ended without an answer; `progress` is what was done so far. */
export class AgentStopped extends Error {
  constructor(
    readonly reason: AgentStopReason,
    readonly detail: string,
    readonly progress: AgentProgress,
    cause?: unknown,
  ) {
    super(`${reason}: ${detail}`, { cause });
    this.name = 'AgentStopped';
  }
}

export interface AgentDeps {
  model: ModelPort;
  tools: AssistantTool[];
  settings: AgentSettings;
  /** Monotonic milliseconds, for tool timings (performance.now). */
  clock?: () => number;
  onToolFailure?: ToolCallContext['onFailure'];
}

export interface Question {
  prompt: string;
  tenantId: string;
  envId: string;
  now: Date;
  /** The caller went away: stop working for it. */
  signal?: AbortSignal;
}

const ROUND_LIMIT_NOTE = (rounds: number) =>
  `\n\n_The assistant stopped after ${rounds} rounds of tool calls without finishing its answer._`;

/** Builds the loop once per tool set: the tools' JSON schemas are generated here, not per question. */
export function createAgent(deps: AgentDeps) {
  const { settings } = deps;
  if (!Number.isInteger(settings.maxRounds) || settings.maxRounds < 1 || settings.maxRounds > MAX_ROUNDS) {
    throw new RangeError(`maxRounds must be 1..${MAX_ROUNDS}`);
  }
  const tools = new Map(deps.tools.map((tool) => [tool.name, tool]));
  const schemas = modelTools(deps.tools);
  const clock = deps.clock ?? (() => performance.now());

  async function answer(question: Question): Promise<AgentAnswer> {
    const answerDeadline = deadline(settings.answerTimeoutMs, question.signal ? [question.signal] : []);
    try {
      return await loop(question, answerDeadline.signal);
    } finally {
      answerDeadline.dispose();
    }
  }

  async function loop(question: Question, signal: AbortSignal): Promise<AgentAnswer> {
    const started = clock();
    const progress: AgentProgress = { tools_used: [], usage: { input_tokens: 0, output_tokens: 0 }, rounds: 0 };
    const stopped = (error?: unknown): AgentStopped => {
      if (question.signal?.aborted) return new AgentStopped('cancelled', 'the caller went away', progress, error);
      if (signal.aborted)
        return new AgentStopped('timeout', `no answer within ${settings.answerTimeoutMs} ms`, progress, error);
      if (error instanceof ModelCallError) {
        // The SDK's own timeout is the time left for the answer: the same deadline, said the same way.
        if (error.failure === 'timeout')
          return new AgentStopped('timeout', `no answer within ${settings.answerTimeoutMs} ms`, progress, error);
        return new AgentStopped(
          error.failure === 'refused' ? 'model_refused' : 'model_unavailable',
          error.detail,
          progress,
          error,
        );
      }
      return new AgentStopped('model_unavailable', 'the model call failed', progress, error);
    };
    const context: ToolCallContext = {
      tools,
      scope: { tenantId: question.tenantId, envId: question.envId, now: question.now },
      answerSignal: signal,
      toolTimeoutMs: settings.toolTimeoutMs,
      maxOutputChars: settings.maxToolOutputChars ?? MAX_TOOL_OUTPUT_CHARS,
      clock,
      onFailure: deps.onToolFailure,
    };
    const messages: MessageParam[] = [{ role: 'user', content: question.prompt }];
    const system = systemPrompt(question.now);

    for (;;) {
      progress.rounds += 1;
      const lastRound = progress.rounds === settings.maxRounds;
      const request: ModelRequest = {
        model: settings.model,
        max_tokens: settings.maxTokens,
        system,
        messages,
        tools: schemas,
        ...(lastRound ? { tool_choice: { type: 'none' as const } } : {}),
        ...(settings.temperature === null ? {} : { temperature: settings.temperature }),
      };
      let message;
      try {
        if (signal.aborted) throw stopped();
        message = await deps.model.createMessage(request, {
          signal,
          timeoutMs: settings.answerTimeoutMs - (clock() - started),
        });
      } catch (error) {
        throw error instanceof AgentStopped ? error : stopped(error);
      }
      progress.usage.input_tokens += message.usage?.input_tokens ?? 0;
      progress.usage.output_tokens += message.usage?.output_tokens ?? 0;

      const uses = message.content.filter(
        (block): block is Extract<ContentBlock, { type: 'tool_use' }> => block.type === 'tool_use',
      );
      const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      if (uses.length === 0 || message.stop_reason !== 'tool_use') {
        return { response: text, stop_reason: message.stop_reason ?? 'end_turn', ...progress };
      }
      if (lastRound)
        return { response: text + ROUND_LIMIT_NOTE(progress.rounds), stop_reason: 'round_limit', ...progress };

      // The calls of one round are independent questions: run them together, report them in order.
      const outcomes = await Promise.all(
        uses.map((use) => callTool({ id: use.id, name: use.name, input: use.input }, context)),
      );
      progress.tools_used.push(...outcomes.map((outcome) => outcome.used));
      if (signal.aborted) throw stopped();
      messages.push({ role: 'assistant', content: message.content as MessageParam['content'] });
      messages.push({ role: 'user', content: outcomes.map((outcome) => outcome.result) });
    }
  }

  return { answer, tools: deps.tools, schemas };
}

export type Agent = ReturnType<typeof createAgent>;
