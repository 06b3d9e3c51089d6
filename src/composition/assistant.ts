/**
 * Composition of the analytics assistant: the model (Anthropic when ANTHROPIC_API_KEY is set,
 * none otherwise: /ask answers 503), the cost store (Athena or the embedded bill), the runbook
 * index (Milvus or in-process, embeddings over HTTP or local), the tools over them and the
 * warehouse, the agent loop and its routes. The runbooks are indexed in the background at start
 * unless the collection already holds every chunk (src/gateways/runbook-search/runbook-index.ts).
 */
import { withTimeout } from '../with-timeout.js';
import type { Logger } from 'pino';
import { createAgent, type Agent } from '../assistant/agent-loop.js';
import { askInfoRoutes, askRoutes } from '../assistant/routes.js';
import { runbookIndexHandle } from '../assistant/runbook-index-handle.js';
import { assistantTools } from '../assistant/tools/index.js';
import type { AssistantTool } from '../assistant/tool.js';
import type { Config } from '../config.js';
import { createEmbeddedCostStore } from '../gateways/cost/embedded/embedded-cost-store.js';
import type { CostPort } from '../gateways/cost/port.js';
import { localEmbeddings, type Embeddings } from '../gateways/runbook-search/embeddings.js';
import { embeddedVectorStore } from '../gateways/runbook-search/embedded-vector-store.js';
import { httpEmbeddings } from '../gateways/runbook-search/http-embeddings.js';
import { startRunbookIndex } from '../gateways/runbook-search/runbook-index.js';
import type { VectorStore } from '../gateways/runbook-search/vector-store.js';
import { sentTemperature } from '../gateways/model/api-version.js';
import type { WarehouseGateway } from '../gateways/warehouse/port.js';
import { sqlParser } from '../gateways/warehouse/sql/parse-tree.js';
import type { PlatformArea } from './area.js';

export interface AssistantComposition extends PlatformArea {
  tools: AssistantTool[];
  agent: Agent | undefined;
  /** The assistant's part of GET /health: never down for a missing key (that is "not configured"). */
  healthCheck(): Promise<Record<string, unknown>>;
}

export interface AssistantDeps {
  config: Config;
  warehouse: { gateway: WarehouseGateway; mode: string };
  logger: Logger;
  now: () => Date;
}

const HEALTH_TIMEOUT_MS = 2_000;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function composeAssistant(deps: AssistantDeps): Promise<AssistantComposition> {
  const { config, logger } = deps;
  const settings = config.assistant;
  const log = logger.child({ area: 'assistant' });

  // The Athena, Milvus and Anthropic clients are loaded only when configured: importing them costs
  // every start (and every test that starts the platform) seconds.
  const cost: CostPort = settings.athena
    ? (await import('../gateways/cost/athena/athena-cost-store.js')).createAthenaCostStore(settings.athena)
    : createEmbeddedCostStore();
  const vectors: VectorStore = settings.milvus
    ? (await import('../gateways/runbook-search/milvus-vector-store.js')).milvusVectorStore(settings.milvus)
    : embeddedVectorStore();
  const embeddings: Embeddings = settings.embeddings ? httpEmbeddings(settings.embeddings) : localEmbeddings();
  const runbooks = runbookIndexHandle(
    () => startRunbookIndex(vectors, embeddings),
    (error) => log.error({ err: error }, 'indexing the runbooks failed; the next runbook search retries'),
  );

  const tools = assistantTools({ warehouse: deps.warehouse.gateway, cost, runbooks: runbooks.get });
  // The SQL parser of explain_query is WebAssembly, loaded once in the background from here so the
  // first call does not wait for it; until it loads, explain_query refuses all SQL (fails closed).
  sqlParser().catch((error: unknown) =>
    log.warn({ err: error }, 'the SQL parser did not load; explain_query refuses SQL until it does'),
  );
  // Temperature 0 (the spec) where the pinned API version takes one; none where it does not.
  const sampling = sentTemperature(settings.temperature, settings.apiVersion);
  const anthropicModel = settings.anthropic
    ? (await import('../gateways/model/anthropic-model.js')).anthropicModel
    : undefined;
  const agent =
    settings.anthropic && anthropicModel
      ? createAgent({
          model: anthropicModel({
            apiKey: settings.anthropic.apiKey,
            baseUrl: settings.anthropic.baseUrl,
            apiVersion: settings.apiVersion,
          }),
          tools,
          settings: {
            model: settings.model,
            temperature: sampling.temperature,
            maxTokens: settings.maxTokens,
            maxRounds: settings.maxRounds,
            toolTimeoutMs: settings.toolTimeoutMs,
            answerTimeoutMs: settings.answerTimeoutMs,
          },
          onToolFailure: ({ tool, reason, error }) =>
            log.warn({ tool, reason, err: error }, 'an assistant tool call failed'),
        })
      : undefined;

  const model = () => ({
    status: agent ? 'configured' : 'not configured',
    model: settings.model,
    ...(agent ? {} : { detail: 'set ANTHROPIC_API_KEY' }),
    api_version: settings.apiVersion,
    temperature: sampling.temperature,
    ...(sampling.detail ? { temperature_detail: sampling.detail } : {}),
  });
  const costStore = () =>
    settings.athena
      ? {
          adapter: 'athena',
          database: settings.athena.database,
          workgroup: settings.athena.workGroup,
          cur_version: settings.athena.curVersion ?? 'auto',
        }
      : { adapter: 'embedded' };
  const vectorStore = async () => {
    const adapter = settings.milvus ? 'milvus' : 'embedded';
    try {
      const chunks = await withTimeout(vectors.count(), HEALTH_TIMEOUT_MS);
      return { adapter, status: 'up', chunks, index: runbooks.state().status, embeddings: embeddings.model };
    } catch (error) {
      return { adapter, status: 'down', error: message(error), index: runbooks.state().status };
    }
  };
  const warehouse = async (envId: string) => {
    const started = performance.now();
    try {
      await withTimeout(deps.warehouse.gateway.cluster(envId), HEALTH_TIMEOUT_MS);
      return { mode: deps.warehouse.mode, status: 'up', latency_ms: Math.round(performance.now() - started) };
    } catch (error) {
      return { mode: deps.warehouse.mode, status: 'down', error: message(error) };
    }
  };

  const routeDeps = {
    agent,
    tools,
    now: deps.now,
    health: async (envId: string) => ({
      model: model(),
      warehouse: await warehouse(envId),
      cost_store: costStore(),
      vector_store: await vectorStore(),
      tools: tools.length,
    }),
    onAnswer: (fields: Record<string, unknown>) => log.info(fields, 'assistant answer'),
  };

  return {
    tools,
    agent,
    routes: [
      { alias: true, routes: () => askRoutes(routeDeps) },
      { alias: false, routes: () => askInfoRoutes(routeDeps) },
    ],
    processes: [{ start: () => undefined, stop: () => vectors.close() }],
    async healthCheck() {
      const { status, api_version, temperature, temperature_detail } = model();
      return {
        model: status,
        model_api_version: api_version,
        temperature,
        ...(temperature_detail ? { temperature_detail } : {}),
        cost_store: costStore().adapter,
        vector_store: await vectorStore(),
        tools: tools.length,
      };
    },
  };
}
