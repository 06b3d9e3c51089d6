/**
 * The analytics assistant's HTTP face: POST /ask (also /api/v1/ask), GET /api/v1/ask/tools and
 * GET /api/v1/ask/health. Not an event-sourced resource (an answer changes nothing), so it lives
 * beside the assistant rather than in commands/ or queries/.
 *
 * POST /ask answers SPEC.md's top-level `response` (Markdown) with `tools_used`, `usage`, `rounds`
 * and `stop_reason` beside it, no envelope; the /api/v1/ask/* listings keep the platform envelope.
 */
import type { AssistantAnswer } from '../contract/assistant.js';
import { askBodySchema } from '../contract/bodies/assistant.js';
import Router from '@koa/router';
import { ok, okBare } from '../http/envelope.js';
import { requires } from '../http/guard.js';
import { HttpProblem, serviceUnavailable } from '../http/problem.js';
import { queryParameters } from '../http/query-parameters.js';
import type { AppState } from '../http/state.js';
import { AgentStopped, type Agent } from './agent-loop.js';
import type { AssistantTool } from './tool.js';
import { inputJsonSchema } from './tool-schemas.js';

export interface AskRouteDeps {
  /** Undefined when no model key is configured: /ask answers 503. */
  agent: Agent | undefined;
  tools: AssistantTool[];
  now: () => Date;
  health: (envId: string) => Promise<Record<string, unknown>>;
  onAnswer?: (fields: Record<string, unknown>) => void;
}

/** Why the loop stopped → the problem the caller gets, with what was done so far. */
function stoppedProblem(error: AgentStopped): HttpProblem {
  const progress = {
    tools_used: error.progress.tools_used,
    usage: error.progress.usage,
    rounds: error.progress.rounds,
  };
  if (error.reason === 'timeout' || error.reason === 'cancelled') {
    return new HttpProblem(
      504,
      'Gateway Timeout',
      `the assistant did not finish: ${error.detail}`,
      undefined,
      progress,
    );
  }
  const what =
    error.reason === 'model_refused' ? 'the model provider refused the request' : 'the model provider is unavailable';
  return new HttpProblem(503, 'Service Unavailable', `${what}: ${error.detail}`, undefined, progress);
}

export function askRoutes(deps: AskRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  router.post('/ask', requires('assistant:ask'), queryParameters([]), async (ctx) => {
    // Bad input is refused before anything else, configured or not.
    const { prompt } = askBodySchema.parse(ctx.request.body ?? {});
    if (!deps.agent)
      throw serviceUnavailable(
        'assistant not configured: set ANTHROPIC_API_KEY (see the README, "Analytics assistant")',
      );
    const { tenantId, envId } = ctx.state.principal;
    // A caller that hangs up stops the loop: nobody would read the answer.
    const gone = new AbortController();
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) gone.abort();
    });
    const started = performance.now();
    try {
      const answer = await deps.agent.answer({ prompt, tenantId, envId, now: deps.now(), signal: gone.signal });
      deps.onAnswer?.({
        outcome: answer.stop_reason,
        rounds: answer.rounds,
        tools: answer.tools_used.length,
        usage: answer.usage,
        ms: Math.round(performance.now() - started),
      });
      const answered: AssistantAnswer = {
        response: answer.response,
        tools_used: answer.tools_used,
        usage: answer.usage,
        rounds: answer.rounds,
        stop_reason: answer.stop_reason,
      };
      okBare(ctx, answered);
    } catch (error) {
      if (!(error instanceof AgentStopped)) throw error;
      deps.onAnswer?.({
        outcome: error.reason,
        rounds: error.progress.rounds,
        tools: error.progress.tools_used.length,
        usage: error.progress.usage,
        ms: Math.round(performance.now() - started),
        err: error.cause,
      });
      throw stoppedProblem(error);
    }
  });
  return router;
}

/** The listing and the health of the assistant; under /api/v1 only (the spec lists neither). */
export function askInfoRoutes(deps: AskRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  const listing = deps.tools.map((tool) => ({
    name: tool.name,
    family: tool.family,
    description: tool.description,
    input_schema: inputJsonSchema(tool),
    example: tool.example,
  }));
  router.get('/ask/tools', requires('assistant:ask'), queryParameters([]), async (ctx) => {
    ok(ctx, { count: listing.length, tools: listing });
  });
  router.get('/ask/health', requires('assistant:ask'), queryParameters([]), async (ctx) => {
    ok(ctx, await deps.health(ctx.state.principal.envId));
  });
  return router;
}
