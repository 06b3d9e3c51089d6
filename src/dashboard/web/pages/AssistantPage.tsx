/**
 * The analytics assistant: ask a question (POST /api/v1/ask), read the answer's Markdown (rendered
 * as text-only vnodes by ../markdown, never as HTML) and the tools it called, in order, with their
 * input, time and outcome. Without a model the API answers 503 and the page says so with its
 * detail; /api/v1/ask/health says it before anyone asks.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { AssistantAnswer, AssistantToolUse } from '../api/types';
import { ErrorNote } from '../components/ErrorNote';
import { useSession } from '../components/session-context';
import { markdown } from '../markdown';

const MAX_PROMPT_CHARS = 8_000;
const INPUT_SUMMARY_CHARS = 160;

/** A tool's input as `key: value` pairs on one line, cut short: the table is a summary. */
export function inputSummary(input: unknown): string {
  const text =
    input && typeof input === 'object' && !Array.isArray(input)
      ? Object.entries(input as Record<string, unknown>)
          .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
          .join(', ')
      : (JSON.stringify(input) ?? '');
  if (!text) return '(no input)';
  return text.length > INPUT_SUMMARY_CHARS ? `${text.slice(0, INPUT_SUMMARY_CHARS - 1)}…` : text;
}

function ToolsUsed({ tools }: { tools: AssistantToolUse[] }) {
  if (tools.length === 0)
    return (
      <p class="muted" data-testid="assistant-no-tools">
        The answer used no tools.
      </p>
    );
  return (
    <table class="grid" data-testid="assistant-tools">
      <thead>
        <tr>
          <th>#</th>
          <th>Tool</th>
          <th>Input</th>
          <th class="num">Took</th>
          <th>Outcome</th>
        </tr>
      </thead>
      <tbody>
        {tools.map((tool, index) => (
          <tr key={index}>
            <td data-label="#">{index + 1}</td>
            <td data-label="Tool">
              <code>{tool.name}</code>
            </td>
            <td data-label="Input" title={JSON.stringify(tool.input)}>
              {inputSummary(tool.input)}
            </td>
            <td data-label="Took" class="num">
              {tool.ms} ms
            </td>
            <td data-label="Outcome" class={tool.ok ? 'result-success' : 'result-failed'}>
              {tool.ok ? 'ok' : `failed: ${tool.error ?? 'unknown'}`}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Answer({ question, answer }: { question: string; answer: AssistantAnswer }) {
  const { input_tokens, output_tokens } = answer.usage;
  return (
    <article class="card assistant-answer" data-testid="assistant-answer" aria-labelledby="assistant-answer-heading">
      <h2 id="assistant-answer-heading">Answer</h2>
      <p class="muted" data-testid="assistant-question">
        You asked: {question}
      </p>
      <div class="markdown" data-testid="assistant-markdown">
        {markdown(answer.response)}
      </div>
      {answer.stop_reason === 'round_limit' ? (
        <p class="error">The assistant reached its round limit: the answer may be incomplete.</p>
      ) : null}
      <h3>Tools used</h3>
      <ToolsUsed tools={answer.tools_used} />
      <p class="muted" data-testid="assistant-usage">
        {answer.rounds} round{answer.rounds === 1 ? '' : 's'} · {input_tokens.toLocaleString()} tokens in,{' '}
        {output_tokens.toLocaleString()} out · stopped: {answer.stop_reason}
      </p>
    </article>
  );
}

export function AssistantPage() {
  const { api, calls, can } = useSession();
  const [prompt, setPrompt] = useState('');
  const [asking, setAsking] = useState(false);
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [unconfigured, setUnconfigured] = useState(false);
  const [result, setResult] = useState<{ question: string; answer: AssistantAnswer } | undefined>(undefined);
  const allowed = can('assistant:ask');

  useEffect(() => {
    // The health check is a courtesy: a failure here leaves asking to say what is wrong.
    api.get<{ model?: { status?: string } }>('/api/v1/ask/health').then(
      (health) => setUnconfigured(health.model?.status === 'not configured'),
      () => undefined,
    );
  }, [api]);

  const ask = async (event: Event) => {
    event.preventDefault();
    const question = prompt.trim();
    setFieldError(undefined);
    setError(undefined);
    if (!question) {
      setFieldError('Type a question first.');
      return;
    }
    setAsking(true);
    try {
      setResult({ question, answer: await calls.ask(question) });
    } catch (failure) {
      const problem = failure as Error;
      const onPrompt = problem instanceof ApiError ? problem.errors.filter((field) => field.path === '/prompt') : [];
      if (onPrompt.length) setFieldError(onPrompt.map((field) => field.message).join('; '));
      else
        setError(
          problem instanceof ApiError && problem.status === 503
            ? `The assistant cannot answer: ${problem.message}`
            : problem.message,
        );
    } finally {
      setAsking(false);
    }
  };

  return (
    <section class="assistant">
      <h1>Assistant</h1>
      {unconfigured ? (
        <p class="notice" data-testid="assistant-unconfigured">
          No model is configured on this server, so questions are refused. An operator sets{' '}
          <code>ANTHROPIC_API_KEY</code> to turn the assistant on.
        </p>
      ) : null}
      <form class="ask-form" onSubmit={(event) => void ask(event)}>
        <label for="assistant-prompt">Question</label>
        <textarea
          id="assistant-prompt"
          rows={3}
          maxLength={MAX_PROMPT_CHARS}
          value={prompt}
          placeholder="Why are my queries slow?"
          aria-invalid={fieldError ? 'true' : undefined}
          aria-describedby={fieldError ? 'assistant-prompt-hint assistant-prompt-error' : 'assistant-prompt-hint'}
          onInput={(event) => setPrompt((event.target as HTMLTextAreaElement).value)}
        />
        <span id="assistant-prompt-hint" class="hint">
          The assistant reads this environment's warehouse, costs and runbooks; it changes nothing.{' '}
          {prompt.length.toLocaleString()} / {MAX_PROMPT_CHARS.toLocaleString()} characters.
        </span>
        {fieldError ? (
          <span id="assistant-prompt-error" class="error" role="alert" data-testid="assistant-prompt-error">
            {fieldError}
          </span>
        ) : null}
        <span>
          <button
            type="submit"
            class="button primary"
            disabled={!allowed || asking}
            title={allowed ? undefined : 'needs the permission assistant:ask'}
          >
            {asking ? 'Asking…' : 'Ask'}
          </button>
        </span>
      </form>
      <div aria-live="polite" data-testid="assistant-status">
        {asking ? <p class="loading">The assistant is working: it may call several tools before it answers.</p> : null}
        <ErrorNote error={error} />
      </div>
      {result && !asking ? <Answer question={result.question} answer={result.answer} /> : null}
    </section>
  );
}
