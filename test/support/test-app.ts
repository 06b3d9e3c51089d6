/**
 * The real platform on a random loopback port, with tokens from a local identity provider.
 * HTTP tests talk to it with fetch, exactly as clients do.
 */
import { fetchAnswer } from './http-answer.js';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import type { SchedulerLike } from 'rxjs';
import type { NotifyPort } from '../../src/gateways/notify/port.js';
import { startPlatform, type RunningPlatform } from '../../src/platform.js';
import { PGLITE_TEMPLATE_DIR } from './pglite-template-dir.js';
import type { Timers } from '../../src/process/sync/sync-scheduler.js';
import {
  startTestIdentityProvider,
  TEST_AUDIENCE,
  TEST_ISSUER,
  type TestIdentityProvider,
  type TokenOptions,
} from './jwks-server.js';

export interface Caller {
  tenantId: string;
  userId: string;
  envId: string;
  roles?: string[];
  [claim: string]: unknown;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestApp {
  url: string;
  platform: RunningPlatform;
  idp: TestIdentityProvider;
  dataDir: string;
  /** A fresh tenant whose caller holds the owner role. */
  newTenant(): Caller;
  token(caller: Caller, options?: TokenOptions): string;
  request<T = any>(
    method: string,
    path: string,
    options?: { caller?: Caller; token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export async function startTestApp(
  options: {
    env?: Record<string, string>;
    dataDir?: string;
    idp?: TestIdentityProvider;
    now?: () => Date;
    scheduler?: SchedulerLike;
    /** Deliveries go to this port instead of the real adapters. */
    notify?: NotifyPort;
    /** The sync scheduler's and the platform watch's timers (virtual time). */
    syncTimers?: Timers;
    watchTimers?: Timers;
    heartbeatScheduler?: SchedulerLike;
  } = {},
): Promise<TestApp> {
  const idp = options.idp ?? (await startTestIdentityProvider());
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'ww-app-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    BASE_URL: TEST_AUDIENCE,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    AUTH_JWKS_URI: idp.jwksUri,
    AUTH_ISSUER: TEST_ISSUER,
    // No scheduled sync runs unless a test asks for them: a tenant that touched the sync API would
    // get runs at the next grid time, opening the embedded PostgreSQL (seconds of compilation)
    // in the middle of whatever the test is doing.
    SYNC_SCHEDULER: 'off',
    // No background scrub unless a test asks for one (test/scrub*.test.ts): each would start a
    // thread that loads the TypeScript toolchain, for nothing the test looks at.
    SCRUB_INTERVAL_HOURS: '0',
    // A fresh embedded PostgreSQL loads the kept cluster instead of running initdb.
    SYNC_EMBEDDED_TEMPLATE_DIR: PGLITE_TEMPLATE_DIR,
    // Closing the app closes the test's idle kept-alive connections at once, not after the grace
    // a real stop gives them (test/shutdown-keep-alive.process.test.ts tests that grace).
    SHUTDOWN_IDLE_GRACE_SECONDS: '0',
    ...options.env,
  });
  const platform = await startPlatform(config, {
    now: options.now,
    scheduler: options.scheduler,
    notify: options.notify,
    syncTimers: options.syncTimers,
    watchTimers: options.watchTimers,
    heartbeatScheduler: options.heartbeatScheduler,
  });
  const token = (caller: Caller, tokenOptions?: TokenOptions) => {
    const { tenantId, userId, envId, roles, ...rest } = caller;
    return idp.sign(
      { tenant_id: tenantId, user_id: userId, env_id: envId, ...(roles ? { roles } : {}), ...rest },
      tokenOptions,
    );
  };
  return {
    url: platform.url,
    platform,
    idp,
    dataDir,
    newTenant: () => ({ tenantId: randomUUID(), userId: randomUUID(), envId: randomUUID(), roles: ['owner'] }),
    token,
    async request(method, path, requestOptions = {}) {
      const headers: Record<string, string> = { ...requestOptions.headers };
      const bearer = requestOptions.token ?? (requestOptions.caller ? token(requestOptions.caller) : undefined);
      if (bearer) headers.authorization = `Bearer ${bearer}`;
      let body: string | undefined;
      if (requestOptions.body !== undefined) {
        headers['content-type'] ??= 'application/json';
        body = typeof requestOptions.body === 'string' ? requestOptions.body : JSON.stringify(requestOptions.body);
      }
      return fetchAnswer(`${platform.url}${path}`, { method, headers, body }, `${method} ${path}`);
    },
    async close() {
      await platform.stop();
      if (!options.idp) await idp.stop();
    },
  };
}
