/**
 * Analytics assistant benchmark. Writes bench/results/assistant.json.
 *
 *   npx tsx bench/assistant.ts [--iterations 200] [--answers 100]
 *
 * 1. Per-tool latency: every registered tool run directly with its example, over the embedded
 *    defaults (simulated cluster, generated cost bill, in-process runbook index), p50/p99.
 * 2. Loop overhead per round: answers of 8 rounds (7 rounds of one instant tool call, then the
 *    text) with a model that answers at once, so what is timed is the loop itself: building the
 *    request with the full tool list, validating and running the call, capping its output, folding
 *    the conversation. Measured twice: with the model port in-process, and through the real
 *    Anthropic SDK over loopback HTTP to the Messages API stand-in (SDK + HTTP + JSON added).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { createAgent, type AgentSettings } from '../src/assistant/agent-loop.js';
import { defineTool } from '../src/assistant/tool.js';
import { assistantTools } from '../src/assistant/tools/index.js';
import { createEmbeddedCostStore } from '../src/gateways/cost/embedded/embedded-cost-store.js';
import { localEmbeddings } from '../src/gateways/runbook-search/embeddings.js';
import { embeddedVectorStore } from '../src/gateways/runbook-search/embedded-vector-store.js';
import { startRunbookIndex } from '../src/gateways/runbook-search/runbook-index.js';
import { anthropicModel } from '../src/gateways/model/anthropic-model.js';
import type { ModelMessage, ModelPort } from '../src/gateways/model/port.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import { startAnthropicStandin, text, toolUse } from '../test/support/anthropic-standin.js';
import { machine } from './support/machine.js';

const flag = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const ITERATIONS = flag('--iterations', 200);
const ANSWERS = flag('--answers', 100);
const ROUNDS = 8;

function figures(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const round = (ms: number) => Math.round(ms * 1000) / 1000;
  return {
    iterations: samples.length,
    p50_ms: round(at(0.5)),
    p99_ms: round(at(0.99)),
    mean_ms: round(samples.reduce((s, v) => s + v, 0) / samples.length),
    max_ms: round(sorted.at(-1)!),
  };
}

let nowMs = Date.parse('2026-11-23T12:00:00Z');
const now = () => new Date(nowMs);
const index = startRunbookIndex(embeddedVectorStore(), localEmbeddings());
const tools = assistantTools({
  warehouse: createSimulatedWarehouse({ now }).gateway,
  cost: createEmbeddedCostStore(),
  runbooks: () => index,
});
await index;
const ENVS = Array.from({ length: 20 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

const perTool: Record<string, ReturnType<typeof figures> & { family: string }> = {};
for (const tool of tools) {
  const input = tool.input.parse(tool.example);
  const run = (i: number) =>
    tool.run(input, {
      tenantId: 'bench-tenant',
      envId: ENVS[i % ENVS.length]!,
      now: now(),
      signal: new AbortController().signal,
    });
  for (let i = 0; i < 20; i++) await run(i); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    nowMs += 1000;
    const started = performance.now();
    await run(i);
    samples.push(performance.now() - started);
  }
  perTool[tool.name] = { family: tool.family, ...figures(samples) };
  console.log(`${tool.name.padEnd(28)} p50 ${perTool[tool.name]!.p50_ms} ms  p99 ${perTool[tool.name]!.p99_ms} ms`);
}

/** An instant tool, so a round's time is the loop's own. */
const noop = defineTool({
  name: 'bench_noop',
  family: 'docs',
  description: 'Answers at once; the benchmark measures the loop around it.',
  input: z.object({ n: z.number().int() }).strict(),
  output: z.object({ n: z.number() }),
  example: { n: 1 },
  run: async (input) => ({ n: input.n }),
});
const settings: AgentSettings = {
  model: 'claude-sonnet-4-6',
  temperature: 0,
  maxTokens: 1024,
  maxRounds: ROUNDS,
  toolTimeoutMs: 5_000,
  answerTimeoutMs: 60_000,
};
const usage = { input_tokens: 1, output_tokens: 1 } as ModelMessage['usage'];
const message = (content: ModelMessage['content'], stop: ModelMessage['stop_reason']): ModelMessage =>
  ({
    id: 'msg_bench',
    type: 'message',
    role: 'assistant',
    model: settings.model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage,
  }) as ModelMessage;

const inProcess: ModelPort = {
  async createMessage(request) {
    const round = (request.messages.length + 1) / 2;
    return round < ROUNDS
      ? message(
          [
            {
              type: 'tool_use',
              id: `toolu_${round}`,
              name: 'bench_noop',
              input: { n: round },
            } as ModelMessage['content'][number],
          ],
          'tool_use',
        )
      : message([{ type: 'text', text: 'done', citations: null } as ModelMessage['content'][number]], 'end_turn');
  },
};

async function perRound(model: ModelPort): Promise<ReturnType<typeof figures>> {
  const agent = createAgent({ model, tools: [...tools, noop], settings });
  const ask = () => agent.answer({ prompt: 'benchmark', tenantId: 't', envId: 'e', now: now() });
  for (let i = 0; i < 10; i++) await ask();
  const samples: number[] = [];
  for (let i = 0; i < ANSWERS; i++) {
    const started = performance.now();
    const answer = await ask();
    if (answer.rounds !== ROUNDS) throw new Error(`expected ${ROUNDS} rounds, got ${answer.rounds}`);
    samples.push((performance.now() - started) / ROUNDS);
  }
  return figures(samples);
}

const loopInProcess = await perRound(inProcess);
console.log(
  `loop overhead per round, in-process model: p50 ${loopInProcess.p50_ms} ms  p99 ${loopInProcess.p99_ms} ms`,
);
const standin = await startAnthropicStandin((request) => {
  const round = (request.body.messages.length + 1) / 2;
  return round < ROUNDS ? { content: [toolUse('bench_noop', { n: round })] } : { content: [text('done')] };
});
const loopOverHttp = await perRound(anthropicModel({ apiKey: 'bench-key', baseUrl: standin.url, maxRetries: 0 }));
await standin.close();
console.log(
  `loop overhead per round, SDK over loopback HTTP: p50 ${loopOverHttp.p50_ms} ms  p99 ${loopOverHttp.p99_ms} ms`,
);

const result = {
  benchmark: 'assistant',
  measured_at: new Date().toISOString(),
  machine: machine(),
  tools: { count: tools.length, iterations_each: ITERATIONS, per_tool: perTool },
  loop: {
    rounds_per_answer: ROUNDS,
    tools_offered: tools.length + 1,
    answers: ANSWERS,
    per_round_in_process_model: loopInProcess,
    per_round_sdk_over_loopback_http: loopOverHttp,
  },
};
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'assistant.json');
await mkdir(dirname(out), { recursive: true });
await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(`wrote ${out}`);
