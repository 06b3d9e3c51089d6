/**
 * N platform processes sharing one EventStoreDB and one MongoDB (cluster-backends.ts), for the
 * cluster test and benchmark. Every instance has its own DATA_DIR and port (kept across a restart)
 * and the same SECRETS_KEY; tokens come from one external identity provider (jwks-server.ts) with
 * one audience, so any instance accepts any token, as behind a load balancer.
 */
import { fetchAnswer } from './http-answer.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClusterBackends } from './cluster-backends.js';
import { startTestIdentityProvider, TEST_AUDIENCE, TEST_ISSUER, type TestIdentityProvider } from './jwks-server.js';
import { freePort, startPlatformProcess, type PlatformProcess } from './platform-process.js';
import { metricsOf, type Metrics } from './prometheus-text.js';
import type { ApiResponse, Caller } from './test-app.js';

export interface ClusterOptions {
  size: number;
  backends: ClusterBackends;
  /** ALERT_EVALUATION_INTERVAL_SECONDS of every instance. */
  intervalSeconds: number;
  /** More variables for every instance. */
  env?: Record<string, string>;
  /** Variables of one instance (over `env`): e.g. its own EVENTSTORE_URL through a proxy. */
  envOf?: (index: number) => Record<string, string>;
  startTimeoutMs?: number;
}

export interface ClusterInstance {
  index: number;
  url: string;
  dataDir: string;
  /** null while killed. */
  process: PlatformProcess | null;
}

export interface RequestOptions {
  caller?: Caller;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Cluster {
  instances: ClusterInstance[];
  idp: TestIdentityProvider;
  /** A fresh tenant (one environment) whose caller holds the owner role. */
  newTenant(): Caller;
  token(caller: Caller): string;
  api<T = any>(index: number, method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  metrics(index: number): Promise<Metrics>;
  /** kill -9: no shutdown, no lease given back; resolves once the process is gone. */
  kill9(index: number): Promise<void>;
  /** Starts the instance again on its DATA_DIR and port. */
  restart(index: number): Promise<void>;
  /** Log lines of an instance so far (stdout and stderr), for failure messages. */
  output(index: number): string;
  stop(): Promise<void>;
}

const STOP_BOUND_MS = 10_000;

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const idp = await startTestIdentityProvider();
  const secretsKey = randomBytes(32).toString('base64');
  const shared = {
    BASE_URL: TEST_AUDIENCE,
    AUTH_JWKS_URI: idp.jwksUri,
    AUTH_ISSUER: TEST_ISSUER,
    EVENTSTORE_URL: options.backends.eventStoreUrl,
    MONGODB_URL: options.backends.mongoUrl,
    MONGODB_DATABASE: options.backends.mongoDatabase,
    SECRETS_KEY: secretsKey,
    ALERT_EVALUATION_INTERVAL_SECONDS: String(options.intervalSeconds),
    // The test's webhook receiver listens on loopback.
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
    // No sync runs: nothing in these tests syncs, and the embedded PostgreSQL would cost seconds per instance.
    SYNC_SCHEDULER: 'off',
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  const instances: ClusterInstance[] = [];
  const envs: Record<string, string>[] = [];
  const launch = async (index: number) => {
    instances[index]!.process = await startPlatformProcess(
      envs[index]!,
      options.startTimeoutMs ?? 60_000,
      undefined,
      undefined,
      { exitWithParent: true },
    );
  };
  const stopOne = async (instance: ClusterInstance) => {
    const child = instance.process;
    if (!child || child.child.exitCode !== null) return;
    child.child.kill('SIGTERM');
    const timer = setTimeout(() => child.child.kill('SIGKILL'), STOP_BOUND_MS);
    await child.exited;
    clearTimeout(timer);
  };
  const cluster: Cluster = {
    instances,
    idp,
    newTenant: () => ({ tenantId: randomUUID(), userId: randomUUID(), envId: randomUUID(), roles: ['owner'] }),
    token: ({ tenantId, userId, envId, roles, ...rest }) =>
      idp.sign({ tenant_id: tenantId, user_id: userId, env_id: envId, ...(roles ? { roles } : {}), ...rest }),
    async api(index, method, path, request = {}) {
      const headers: Record<string, string> = { ...request.headers };
      if (request.caller) headers.authorization = `Bearer ${cluster.token(request.caller)}`;
      let body: string | undefined;
      if (request.body !== undefined) {
        headers['content-type'] ??= 'application/json';
        body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
      }
      return fetchAnswer(
        `${instances[index]!.url}${path}`,
        { method, headers, body, signal: AbortSignal.timeout(30_000) },
        `instance ${index}: ${method} ${path}`,
      );
    },
    async metrics(index) {
      const response = await fetch(`${instances[index]!.url}/metrics`, { signal: AbortSignal.timeout(10_000) });
      if (response.status !== 200) throw new Error(`instance ${index}: GET /metrics answered ${response.status}`);
      return metricsOf(await response.text());
    },
    async kill9(index) {
      const child = instances[index]!.process;
      if (!child) return;
      child.child.kill('SIGKILL');
      await child.exited;
      instances[index]!.process = null;
    },
    async restart(index) {
      if (instances[index]!.process) throw new Error(`instance ${index} is running`);
      await launch(index);
    },
    output: (index) => instances[index]!.process?.output() ?? '(not running)',
    async stop() {
      await Promise.all(instances.map(stopOne));
      for (const instance of instances) rmSync(instance.dataDir, { recursive: true, force: true });
      await idp.stop();
    },
  };
  try {
    for (let index = 0; index < options.size; index++) {
      const port = await freePort();
      const dataDir = mkdtempSync(join(tmpdir(), `ww-cluster-${index}-`));
      envs.push({ ...shared, ...options.envOf?.(index), PORT: String(port), DATA_DIR: dataDir });
      instances.push({ index, url: `http://127.0.0.1:${port}`, dataDir, process: null });
    }
    // One after another: the first creates the read models' collections and indexes.
    for (let index = 0; index < options.size; index++) await launch(index);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}
