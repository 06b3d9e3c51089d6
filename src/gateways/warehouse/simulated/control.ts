import { BUILTIN_METRIC_IDS } from '../metric-catalogue.js';
import type { MetricOverrides } from '../metrics/provider.js';
import {
  InvalidMetricRequestError,
  UnknownClusterError,
  UnknownMetricError,
  WarehouseUnavailableError,
  type Clock,
  type MetricRequest,
} from '../port.js';
import { envLayout } from './cluster-state.js';

/**
 * Steering for demos and tests: pin a metric of an environment to a value for a while, or pause
 * an environment's clusters. This is the copy the evaluator reads, synchronously, in memory; with
 * MONGODB_URL set the state is shared by every instance and this copy follows the shared one
 * (simulator-steering.ts). Exists only while the simulated warehouse is the active adapter.
 */

export interface MetricPinRequest {
  envId: string;
  /** Without it the pin covers every read of the environment; a cluster's own pin wins over it. */
  clusterId?: string;
  metric: string;
  value: number;
  durationSeconds: number;
}

export interface MetricPin {
  envId: string;
  clusterId: string | null;
  metric: string;
  value: number;
  expiresAt: Date;
}

export interface SimulatorStatus {
  envId: string;
  paused: boolean;
  clusters: string[];
  pins: MetricPin[];
}

/** Every pin and pause, as the shared store hands them to each instance. */
export interface SimulatorSnapshot {
  pins: MetricPin[];
  paused: string[];
}

export interface SimulatorControl {
  /** Until it expires, registry reads of exactly this scope return `value`. */
  pinMetric(request: MetricPinRequest): MetricPin;
  /** The pin a request makes, checked (unknown metric or cluster, bad value or duration throw), not applied. */
  pinFor(request: MetricPinRequest): MetricPin;
  /** Applies a checked pin (replacing the pin of the same scope). */
  applyPin(pin: MetricPin): void;
  /** Replaces every pin and pause with the shared state's. */
  replaceState(snapshot: SimulatorSnapshot): void;
  /** True when a pin was removed. */
  unpinMetric(target: { envId: string; clusterId?: string; metric: string }): boolean;
  /** While paused, every gateway call for the environment fails with WarehouseUnavailableError. */
  setPaused(envId: string, paused: boolean): SimulatorStatus;
  isPaused(envId: string): boolean;
  /** Every environment paused now (for /health). */
  pausedEnvironments(): string[];
  status(envId: string): SimulatorStatus;
  /** Throws the same error a paused cluster gives, or returns when the environment is up. */
  assertAvailable(envId: string): void;
}

export interface SimulatorControlOptions {
  now: Clock;
  /** The metric ids a pin may name; defaults to the built-in seven (wire it to the registry). */
  knownMetrics?: () => readonly string[];
}

const pinKey = (envId: string, clusterId: string | null | undefined, metric: string) =>
  `${envId}\u0000${clusterId ?? ''}\u0000${metric}`;

function pausedError(envId: string, clusters: readonly string[]): WarehouseUnavailableError {
  const subject = clusters.length === 1 ? `cluster ${clusters[0]}` : `clusters ${clusters.join(', ')}`;
  const verb = clusters.length === 1 ? 'is' : 'are';
  return new WarehouseUnavailableError(envId, 'paused', `${subject} of environment ${envId} ${verb} paused`);
}

export function createSimulatorControl(options: SimulatorControlOptions): SimulatorControl & MetricOverrides {
  const knownMetrics = options.knownMetrics ?? (() => BUILTIN_METRIC_IDS);
  const paused = new Set<string>();
  const pins = new Map<string, MetricPin>();
  const clustersOf = (envId: string) => envLayout(envId).clusters.map((cluster) => cluster.id);

  const livePin = (key: string): MetricPin | undefined => {
    const pin = pins.get(key);
    if (pin && pin.expiresAt.getTime() <= options.now().getTime()) {
      pins.delete(key);
      return undefined;
    }
    return pin;
  };

  const control: SimulatorControl & MetricOverrides = {
    pinMetric(request) {
      const pin = control.pinFor(request);
      control.applyPin(pin);
      return pin;
    },
    pinFor(request) {
      const known = knownMetrics();
      if (!known.includes(request.metric)) throw new UnknownMetricError(request.metric, known);
      const clusters = clustersOf(request.envId);
      if (request.clusterId !== undefined && !clusters.includes(request.clusterId)) {
        throw new UnknownClusterError(request.envId, request.clusterId, clusters);
      }
      if (!Number.isFinite(request.value))
        throw new InvalidMetricRequestError('a pinned value must be a finite number');
      if (!(request.durationSeconds > 0))
        throw new InvalidMetricRequestError('a pin must last a positive number of seconds');
      return {
        envId: request.envId,
        clusterId: request.clusterId ?? null,
        metric: request.metric,
        value: request.value,
        expiresAt: new Date(options.now().getTime() + request.durationSeconds * 1000),
      };
    },
    applyPin(pin) {
      pins.set(pinKey(pin.envId, pin.clusterId, pin.metric), pin);
    },
    replaceState(snapshot) {
      pins.clear();
      for (const pin of snapshot.pins) control.applyPin(pin);
      paused.clear();
      for (const envId of snapshot.paused) paused.add(envId);
    },
    unpinMetric({ envId, clusterId, metric }) {
      return pins.delete(pinKey(envId, clusterId, metric));
    },
    setPaused(envId, pause) {
      if (pause) paused.add(envId);
      else paused.delete(envId);
      return control.status(envId);
    },
    isPaused: (envId) => paused.has(envId),
    pausedEnvironments: () => [...paused],
    status(envId) {
      const live = [...pins.keys()].map(livePin).filter((pin): pin is MetricPin => pin?.envId === envId);
      return { envId, paused: paused.has(envId), clusters: clustersOf(envId), pins: live };
    },
    assertAvailable(envId) {
      if (paused.has(envId)) throw pausedError(envId, clustersOf(envId));
    },
    pinnedValue(request: MetricRequest) {
      control.assertAvailable(request.envId);
      // A cluster-scoped read takes that cluster's pin, else the environment-wide one.
      const pin =
        (request.clusterId !== undefined
          ? livePin(pinKey(request.envId, request.clusterId, request.metric))
          : undefined) ?? livePin(pinKey(request.envId, null, request.metric));
      return pin?.value;
    },
  };
  return control;
}
