import Router from '@koa/router';
import type { ExecutionContext } from 'ava';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { warehouseRoutes } from '../../queries/warehouse.js';
import {
  fileEnvironmentResolver,
  parseEnvironments,
  type EnvironmentResolver,
} from '../../src/gateways/warehouse/environments.js';
import type { WarehouseGateway } from '../../src/gateways/warehouse/port.js';
import { createRedshiftGateway } from '../../src/gateways/warehouse/redshift/redshift-gateway.js';
import { problemJson } from '../../src/http/error-handler.js';
import type { AppState } from '../../src/http/state.js';
import {
  startRedshiftDataStandin,
  type RecordedStatement,
  type RedshiftDataStandin,
  type StatementScript,
} from './redshift-data-standin.js';

/**
 * The Redshift gateway driving the real AWS client against the Data API stand-in, on virtual
 * time (a poll delay advances the clock), and the warehouse routes over a gateway.
 */

export const START = Date.parse('2025-03-12T14:30:00Z');

/**
 * A provisioned cluster reached as db_user `monitor` (its schema `provisionedSchema`), a serverless
 * workgroup behind a secret.
 */
export const redshiftEnvironmentsWith = (provisionedSchema: string): EnvironmentResolver =>
  fileEnvironmentResolver(
    parseEnvironments({
      'env-prov': {
        kind: 'provisioned',
        cluster_identifier: 'analytics-prod',
        database: 'dw',
        db_user: 'monitor',
        region: 'eu-west-1',
        schema: provisionedSchema,
      },
      'env-sls': {
        kind: 'serverless',
        workgroup_name: 'bi-workgroup',
        database: 'dev',
        secret_arn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:redshift-monitor',
        region: 'eu-west-1',
        schema: 'marts',
      },
    }),
  );

export const redshiftEnvironments = redshiftEnvironmentsWith('analytics');

export interface RedshiftHarness {
  standin: RedshiftDataStandin;
  gateway: WarehouseGateway;
  advance(ms: number): void;
}

export async function redshiftHarness(
  t: ExecutionContext,
  script: (statement: RecordedStatement) => StatementScript = () => ({}),
  environments: EnvironmentResolver = redshiftEnvironments,
): Promise<RedshiftHarness> {
  const standin = await startRedshiftDataStandin();
  t.teardown(() => standin.close());
  standin.script(script);
  let nowMs = START;
  const gateway = createRedshiftGateway({
    environments,
    clientOptions: {
      endpoint: standin.url,
      credentials: { accessKeyId: 'AKIDSTANDIN', secretAccessKey: 'standin-secret' },
      maxAttempts: 1,
    },
    backoff: { initialDelayMs: 10, maxDelayMs: 80, factor: 2 },
    now: () => new Date(nowMs),
    sleep: async (ms) => void (nowMs += ms),
  });
  return { standin, gateway, advance: (ms) => void (nowMs += ms) };
}

/** The warehouse routes over `gateway`, problems rendered as the app does; the principal's env comes from x-test-env. */
export async function warehouseRoutesOver(
  t: ExecutionContext,
  gateway: WarehouseGateway,
  environments: EnvironmentResolver = redshiftEnvironments,
) {
  const router = new Router<AppState>();
  router.use(warehouseRoutes({ gateway, environments, now: () => new Date(START) }).routes());
  const app = new Koa<AppState>();
  app.use(problemJson);
  app.use(async (ctx, next) => {
    ctx.state.principal = { subject: 's', userId: 'u', tenantId: 't', envId: ctx.get('x-test-env'), roles: [] };
    ctx.state.can = async () => true;
    await next();
  });
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (path: string, envId = 'env-prov') => {
    const response = await fetch(url + path, { headers: { 'x-test-env': envId } });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      body: (await response.json()) as Record<string, any>,
    };
  };
}
