import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { UnknownEnvironmentError } from './errors.js';

/**
 * Which warehouse each environment reads. WAREHOUSE_ENVIRONMENTS names a JSON file
 * `{ "<env_id>": { kind, cluster_identifier | workgroup_name, database, db_user | secret_arn, region, schema } }`;
 * without it every env_id gets its own simulated cluster.
 */

const awsRegion = z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'expected an AWS region such as eu-west-1');
const nonEmpty = z.string().trim().min(1);

const provisionedTargetSchema = z
  .object({
    kind: z.literal('provisioned'),
    cluster_identifier: nonEmpty,
    database: nonEmpty,
    // Temporary credentials for a database user (GetClusterCredentials) or a Secrets Manager secret.
    db_user: nonEmpty.optional(),
    secret_arn: nonEmpty.optional(),
    region: awsRegion,
    schema: nonEmpty,
  })
  .strict()
  .refine((target) => (target.db_user === undefined) !== (target.secret_arn === undefined), {
    message: 'a provisioned cluster needs exactly one of db_user and secret_arn',
    path: ['db_user'],
  });

const serverlessTargetSchema = z
  .object({
    kind: z.literal('serverless'),
    workgroup_name: nonEmpty,
    database: nonEmpty,
    // Optional: without it the Data API uses the caller's IAM identity (GetCredentials).
    secret_arn: nonEmpty.optional(),
    region: awsRegion,
    schema: nonEmpty,
  })
  .strict();

export const environmentsFileSchema = z.record(
  nonEmpty,
  z.discriminatedUnion('kind', [provisionedTargetSchema, serverlessTargetSchema]),
);

export type ProvisionedTarget = z.infer<typeof provisionedTargetSchema>;
export type ServerlessTarget = z.infer<typeof serverlessTargetSchema>;
export type RedshiftTarget = ProvisionedTarget | ServerlessTarget;
/** The embedded default: the simulator derives the cluster from the env_id itself. */
export interface SimulatedTarget {
  kind: 'simulated';
  env_id: string;
}
export type WarehouseTarget = RedshiftTarget | SimulatedTarget;
export type EnvironmentMap = ReadonlyMap<string, RedshiftTarget>;

export interface EnvironmentResolver {
  /** `file`: targets come from WAREHOUSE_ENVIRONMENTS; `simulated`: the embedded default. */
  readonly mode: 'file' | 'simulated';
  /** Throws UnknownEnvironmentError for an env_id a configured file does not list. */
  resolve(envId: string): WarehouseTarget;
  /** The environments a file configures; none for the simulated default (any env_id is valid there). */
  configured(): readonly string[];
}

export class EnvironmentsFileError extends Error {
  override readonly name = 'EnvironmentsFileError';
  constructor(
    readonly source: string,
    readonly issues: { path: string; message: string }[],
  ) {
    super(`invalid warehouse environments in ${source}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  }
}

/** Validates the parsed JSON of an environments file. */
export function parseEnvironments(json: unknown, source = 'WAREHOUSE_ENVIRONMENTS'): EnvironmentMap {
  const parsed = environmentsFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new EnvironmentsFileError(
      source,
      parsed.error.issues.map((issue) => ({ path: `/${issue.path.map(String).join('/')}`, message: issue.message })),
    );
  }
  return new Map(Object.entries(parsed.data));
}

export async function loadEnvironmentsFile(path: string): Promise<EnvironmentMap> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new EnvironmentsFileError(path, [
      { path: '/', message: `cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})` },
    ]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new EnvironmentsFileError(path, [{ path: '/', message: 'not valid JSON' }]);
  }
  return parseEnvironments(json, path);
}

export function fileEnvironmentResolver(environments: EnvironmentMap): EnvironmentResolver {
  return {
    mode: 'file',
    configured: () => [...environments.keys()],
    resolve(envId) {
      const target = environments.get(envId);
      if (!target) throw new UnknownEnvironmentError(envId);
      return target;
    },
  };
}

export const simulatedEnvironmentResolver: EnvironmentResolver = {
  mode: 'simulated',
  configured: () => [],
  resolve: (envId) => ({ kind: 'simulated', env_id: envId }),
};

/** The composition root's entry: a file path (WAREHOUSE_ENVIRONMENTS) or nothing. */
export async function environmentResolverFor(path: string | undefined): Promise<EnvironmentResolver> {
  return path ? fileEnvironmentResolver(await loadEnvironmentsFile(path)) : simulatedEnvironmentResolver;
}

/** The one cluster (or serverless workgroup) an environment of the file maps to. */
export const clusterIdOf = (target: RedshiftTarget): string =>
  target.kind === 'provisioned' ? target.cluster_identifier : target.workgroup_name;

/** How error messages name a target, e.g. `provisioned cluster "analytics-prod"`. */
export function describeTarget(target: WarehouseTarget): string {
  switch (target.kind) {
    case 'provisioned':
      return `provisioned cluster "${target.cluster_identifier}"`;
    case 'serverless':
      return `serverless workgroup "${target.workgroup_name}"`;
    case 'simulated':
      return 'simulated warehouse';
  }
}
