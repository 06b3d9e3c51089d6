import test from 'ava';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeTarget,
  EnvironmentsFileError,
  environmentResolverFor,
  fileEnvironmentResolver,
  parseEnvironments,
} from '../src/gateways/warehouse/environments.js';
import { UnknownEnvironmentError } from '../src/gateways/warehouse/port.js';

const PROVISIONED = {
  kind: 'provisioned',
  cluster_identifier: 'analytics-prod',
  database: 'dw',
  db_user: 'monitor',
  region: 'eu-west-1',
  schema: 'analytics',
};
const SERVERLESS = { kind: 'serverless', workgroup_name: 'bi', database: 'dev', region: 'us-east-1', schema: 'public' };

test('a valid file maps each env_id to its target', (t) => {
  const environments = parseEnvironments({ 'env-1': PROVISIONED, 'env-2': SERVERLESS });
  const resolver = fileEnvironmentResolver(environments);
  t.is(resolver.mode, 'file');
  t.deepEqual(resolver.resolve('env-1'), PROVISIONED);
  t.deepEqual(resolver.resolve('env-2'), SERVERLESS);
  t.is(describeTarget(resolver.resolve('env-2')), 'serverless workgroup "bi"');
});

test('an env_id the file does not list throws UnknownEnvironmentError', (t) => {
  const resolver = fileEnvironmentResolver(parseEnvironments({ 'env-1': PROVISIONED }));
  const error = t.throws(() => resolver.resolve('env-9'), { instanceOf: UnknownEnvironmentError });
  t.is(error?.envId, 'env-9');
  t.is(error?.message, 'environment env-9 has no warehouse configured');
});

const INVALID: [string, unknown, string[]][] = [
  ['provisioned with neither db_user nor secret_arn', { e: { ...PROVISIONED, db_user: undefined } }, ['/e/db_user']],
  [
    'provisioned with both db_user and secret_arn',
    { e: { ...PROVISIONED, secret_arn: 'arn:aws:secretsmanager:x' } },
    ['/e/db_user'],
  ],
  ['serverless without a workgroup', { e: { ...SERVERLESS, workgroup_name: undefined } }, ['/e/workgroup_name']],
  ['an unknown kind', { e: { ...SERVERLESS, kind: 'dedicated' } }, ['/e/kind']],
  ['a malformed region', { e: { ...SERVERLESS, region: 'Europe' } }, ['/e/region']],
  ['a typo in a field name', { e: { ...SERVERLESS, schemaa: 'x' } }, ['/e']],
  ['not an object', ['env-1'], ['/']],
];

for (const [title, json, paths] of INVALID) {
  test(`rejects ${title}, naming the JSON path`, (t) => {
    const error = t.throws(() => parseEnvironments(json, 'envs.json'), { instanceOf: EnvironmentsFileError });
    t.deepEqual(
      error?.issues.map((issue) => issue.path),
      paths,
    );
    t.true(error!.message.startsWith('invalid warehouse environments in envs.json: '));
  });
}

test('without a file every env_id gets its own simulated warehouse', async (t) => {
  const resolver = await environmentResolverFor(undefined);
  t.is(resolver.mode, 'simulated');
  t.deepEqual(resolver.resolve('anything'), { kind: 'simulated', env_id: 'anything' });
});

test('environmentResolverFor loads and validates the named file', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'warehouse-envs-'));
  const good = join(dir, 'good.json');
  await writeFile(good, JSON.stringify({ 'env-1': SERVERLESS }));
  t.deepEqual((await environmentResolverFor(good)).resolve('env-1'), SERVERLESS);

  const broken = join(dir, 'broken.json');
  await writeFile(broken, '{ not json');
  await t.throwsAsync(environmentResolverFor(broken), {
    instanceOf: EnvironmentsFileError,
    message: /broken\.json: \/: not valid JSON/,
  });
  await t.throwsAsync(environmentResolverFor(join(dir, 'missing.json')), {
    message: /cannot read the file \(ENOENT\)/,
  });
});
