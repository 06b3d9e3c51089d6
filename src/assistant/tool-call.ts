/**
 * One tool call the model asked for, run safely: the tool must exist, its input must pass the
 * tool's own zod schema (strict: no tenant, environment or any other field the schema lacks), it
 * runs under its own deadline and the whole answer's, and its answer is checked against the tool's
 * output schema and size-capped. Every failure becomes an `is_error` tool result the model can read
 * and act on (retry with other input, try another tool, or say what it could not find): a tool
 * failure never fails the request.
 */
import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { ZodError } from 'zod';
import type { AssistantTool, ToolScope } from './tool.js';
import { deadline } from './deadline.js';
import { capToolOutput } from './tool-output-cap.js';

/** Why a call failed, as reported in `tools_used` (the model gets the words, the caller the reason). */
export type ToolFailureReason =
  | 'unknown_tool'
  | 'invalid_input'
  | 'timeout'
  | 'failed'
  | 'invalid_output'
  | 'cancelled';

export interface ToolUsed {
  name: string;
  input: unknown;
  ok: boolean;
  ms: number;
  error: ToolFailureReason | null;
}

export interface ToolUse {
  id: string;
  name: string;
  input: unknown;
}

export interface ToolCallContext {
  tools: ReadonlyMap<string, AssistantTool>;
  scope: Omit<ToolScope, 'signal'>;
  /** The whole answer's signal; the call adds its own deadline to it. */
  answerSignal: AbortSignal;
  toolTimeoutMs: number;
  maxOutputChars: number;
  /** Monotonic milliseconds (performance.now in production). */
  clock: () => number;
  onFailure?: (failure: { tool: string; reason: ToolFailureReason; error?: unknown }) => void;
}

export interface ToolCallOutcome {
  used: ToolUsed;
  result: ToolResultBlockParam;
}

const MAX_ERROR_CHARS = 300;

class ToolDeadline extends Error {}

/** Resolves the tool's promise, or rejects when the signal aborts (a tool that ignores its signal cannot hold the loop). */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ToolDeadline());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ToolDeadline());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

const issuesText = (error: ZodError) =>
  error.issues
    .map((issue) => `${issue.path.length > 0 ? `/${issue.path.join('/')}` : '(input)'}: ${issue.message}`)
    .join('; ');

/** The first line of an error's message, bounded: enough for the model to act on, no stack. */
function errorText(error: unknown): string {
  if (error instanceof ZodError) return `invalid question: ${issuesText(error)}`;
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').slice(0, MAX_ERROR_CHARS) || 'the tool failed';
}

export async function callTool(use: ToolUse, context: ToolCallContext): Promise<ToolCallOutcome> {
  const started = context.clock();
  const finish = (ok: boolean, content: string, error: ToolFailureReason | null): ToolCallOutcome => ({
    used: { name: use.name, input: use.input, ok, ms: Math.round((context.clock() - started) * 10) / 10, error },
    result: { type: 'tool_result', tool_use_id: use.id, content, ...(ok ? {} : { is_error: true }) },
  });
  const fail = (reason: ToolFailureReason, text: string, error?: unknown) => {
    context.onFailure?.({ tool: use.name, reason, error });
    return finish(false, text, reason);
  };

  const tool = context.tools.get(use.name);
  if (!tool) return fail('unknown_tool', `unknown tool "${use.name}": it is not one of the tools offered`);
  const input = tool.input.safeParse(use.input);
  if (!input.success) return fail('invalid_input', `invalid input: ${issuesText(input.error)}`);

  const toolDeadline = deadline(context.toolTimeoutMs, [context.answerSignal]);
  const { signal } = toolDeadline;
  let output: unknown;
  try {
    output = await raceAbort(tool.run(input.data, { ...context.scope, signal }), signal);
  } catch (error) {
    if (error instanceof ToolDeadline) {
      return context.answerSignal.aborted
        ? fail('cancelled', 'the answer ran out of time while this tool ran')
        : fail('timeout', `the tool did not answer within ${context.toolTimeoutMs} ms`);
    }
    return fail('failed', `the tool failed: ${errorText(error)}`, error);
  } finally {
    toolDeadline.dispose();
  }
  const checked = tool.output.safeParse(output);
  if (!checked.success)
    return fail(
      'invalid_output',
      'the tool answered something it should not have (logged); do not rely on it',
      checked.error,
    );
  return finish(true, capToolOutput(checked.data, context.maxOutputChars).text, null);
}
