import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { InvalidMetricRequestError, UnknownMetricError, type MetricRequest, type WarehouseGateway } from '../port.js';
import { builtinMetricProviders } from './builtin-providers.js';
import type { MetricOverrides, MetricProvider, MetricReadResult } from './provider.js';

/**
 * Metric id → provider. The evaluator hands over every enabled rule's (env, cluster, metric,
 * window) at once; readMany reads each distinct combination once, however many rules share it,
 * and never more than `concurrency` at a time (the Data API limits active statements).
 */

export interface MetricDescription {
  id: string;
  unit: string;
  description: string;
}

export interface MetricRegistry {
  /** Adds a metric; ids are snake_case and may not be registered twice. */
  register(id: string, provider: MetricProvider): void;
  ids(): string[];
  has(id: string): boolean;
  describe(): MetricDescription[];
  read(request: MetricRequest): Promise<number>;
  /** One result per request, in order; a failed combination fails only its own requests. */
  readMany(requests: readonly MetricRequest[]): Promise<MetricReadResult[]>;
  /** Provider reads made so far, after de-duplication (pinned values are not reads). */
  readonly providerReads: number;
}

export interface MetricRegistryOptions {
  gateway: WarehouseGateway;
  overrides?: MetricOverrides;
  /** Combinations read in parallel by readMany; default 8. */
  concurrency?: number;
  /** Register the seven SPEC metrics; default true. */
  builtins?: boolean;
}

/** STL/STV history is kept for about a week, so a longer window cannot be measured honestly. */
export const MAX_WINDOW_MINUTES = 7 * 24 * 60;
const METRIC_ID = /^[a-z][a-z0-9_]*$/;

const combinationKey = (r: MetricRequest) => JSON.stringify([r.envId, r.clusterId ?? null, r.metric, r.windowMinutes]);

async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      await work(items[next++]!);
      // A provider that computes rather than waits (the simulated warehouse) would otherwise hold
      // the event loop for the whole tick's reads (0.5-1 s at 1,000 combinations): let requests in.
      await yieldToEventLoop();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export function createMetricRegistry(options: MetricRegistryOptions): MetricRegistry {
  const providers = new Map<string, MetricProvider>();
  const concurrency = Math.max(1, options.concurrency ?? 8);
  let providerReads = 0;

  const validate = (request: MetricRequest): MetricProvider => {
    const provider = providers.get(request.metric);
    if (!provider) throw new UnknownMetricError(request.metric, [...providers.keys()]);
    const window = request.windowMinutes;
    if (!Number.isInteger(window) || window < 1 || window > MAX_WINDOW_MINUTES) {
      throw new InvalidMetricRequestError(
        `window must be a whole number of minutes from 1 to ${MAX_WINDOW_MINUTES}, got ${window}`,
      );
    }
    return provider;
  };

  const readOne = async (request: MetricRequest): Promise<number> => {
    const provider = validate(request);
    const pinned = options.overrides?.pinnedValue(request);
    if (pinned !== undefined) return pinned;
    providerReads += 1;
    const scope = { envId: request.envId, clusterId: request.clusterId, windowMinutes: request.windowMinutes };
    return provider.read(options.gateway, scope);
  };

  const registry: MetricRegistry = {
    register(id, provider) {
      if (!METRIC_ID.test(id)) throw new InvalidMetricRequestError(`metric id "${id}" must be snake_case`);
      if (providers.has(id)) throw new InvalidMetricRequestError(`metric "${id}" is already registered`);
      providers.set(id, provider);
    },
    ids: () => [...providers.keys()],
    has: (id) => providers.has(id),
    describe: () => [...providers].map(([id, { unit, description }]) => ({ id, unit, description })),
    read: (request) => readOne(request),
    async readMany(requests) {
      const outcomes = new Map<string, { ok: true; value: number } | { ok: false; error: Error }>();
      const distinct = [...new Map(requests.map((r) => [combinationKey(r), r])).entries()];
      await forEachLimited(distinct, concurrency, async ([key, request]) => {
        try {
          outcomes.set(key, { ok: true, value: await readOne(request) });
        } catch (error) {
          outcomes.set(key, { ok: false, error: error instanceof Error ? error : new Error(String(error)) });
        }
      });
      return requests.map((request) => ({ request, ...outcomes.get(combinationKey(request))! }));
    },
    get providerReads() {
      return providerReads;
    },
  };

  if (options.builtins ?? true) for (const [id, provider] of builtinMetricProviders()) registry.register(id, provider);
  return registry;
}
