/** The assistant's settings: defaults, bounds, and the variables that only make sense together. */
import test from 'ava';
import { ConfigError, loadConfig } from '../src/config.js';

test('by default the assistant has no model key, and reads the embedded cost bill and runbook index', (t) => {
  const { assistant } = loadConfig({});
  t.is(assistant.anthropic, undefined);
  t.is(assistant.model, 'claude-sonnet-4-6');
  t.is(assistant.temperature, 0);
  t.is(assistant.apiVersion, '2023-06-01', 'the last Messages API version that takes a temperature');
  t.is(loadConfig({ ANTHROPIC_API_VERSION: '2026-10-21' }).assistant.apiVersion, '2026-10-21');
  t.is(assistant.maxRounds, 8);
  t.is(assistant.toolTimeoutMs, 15_000);
  t.is(assistant.answerTimeoutMs, 60_000);
  t.is(assistant.athena, undefined);
  t.is(assistant.milvus, undefined);
  t.is(assistant.embeddings, undefined);
});

test('a key, a gateway, a model and a temperature are taken as given; `omit` sends none', (t) => {
  const { assistant } = loadConfig({
    ANTHROPIC_API_KEY: 'sk-ant-x',
    ANTHROPIC_BASE_URL: 'https://llm-gateway.example/anthropic',
    ASSISTANT_MODEL: 'claude-opus-4-6',
    ASSISTANT_TEMPERATURE: '0.3',
  });
  t.deepEqual(assistant.anthropic, { apiKey: 'sk-ant-x', baseUrl: 'https://llm-gateway.example/anthropic' });
  t.is(assistant.model, 'claude-opus-4-6');
  t.is(assistant.temperature, 0.3);
  t.is(loadConfig({ ASSISTANT_TEMPERATURE: 'omit' }).assistant.temperature, null);
  t.is(loadConfig({ ASSISTANT_TEMPERATURE: '1' }).assistant.temperature, 1);
});

test('Athena, Milvus and an embeddings endpoint are chosen when configured', (t) => {
  const { assistant } = loadConfig({
    COST_ATHENA_DATABASE: 'billing',
    COST_ATHENA_TABLE: 'cur',
    COST_ATHENA_WORKGROUP: 'analytics',
    COST_ATHENA_OUTPUT_LOCATION: 's3://results/athena/',
    AWS_REGION: 'eu-west-1',
    MILVUS_ADDRESS: 'milvus.internal:19530',
    MILVUS_TOKEN: 'root:Milvus',
    EMBEDDINGS_URL: 'https://embeddings.example/v1',
    EMBEDDINGS_MODEL: 'text-embedding-3-small',
    EMBEDDINGS_DIM: '1536',
  });
  t.deepEqual(assistant.athena, {
    region: 'eu-west-1',
    database: 'billing',
    table: 'cur',
    workGroup: 'analytics',
    outputLocation: 's3://results/athena/',
    environmentColumn: undefined,
    environmentTag: undefined,
    curVersion: 'auto',
    statusTable: 'cost_and_usage_data_status',
  });
  t.deepEqual(assistant.milvus, { address: 'milvus.internal:19530', token: 'root:Milvus', collection: 'runbooks' });
  const cur2 = loadConfig({
    COST_ATHENA_DATABASE: 'billing',
    COST_ATHENA_TABLE: 'cur',
    COST_ATHENA_OUTPUT_LOCATION: 's3://results/',
    AWS_REGION: 'eu-west-1',
    COST_CUR_VERSION: '2',
    COST_ATHENA_ENVIRONMENT_TAG: 'user_stage',
    COST_ATHENA_STATUS_TABLE: 'none',
  }).assistant.athena;
  t.like(cur2, { curVersion: 2, environmentTag: 'user_stage', statusTable: null });
  t.deepEqual(assistant.embeddings, {
    url: 'https://embeddings.example/v1',
    model: 'text-embedding-3-small',
    dim: 1536,
    apiKey: undefined,
  });
});

const bad: [string, Record<string, string>, RegExp][] = [
  ['more than 8 rounds', { ASSISTANT_MAX_ROUNDS: '9' }, /^invalid configuration: ASSISTANT_MAX_ROUNDS: /],
  ['a temperature above 1', { ASSISTANT_TEMPERATURE: '1.5' }, /ASSISTANT_TEMPERATURE: /],
  ['a temperature that is not a number', { ASSISTANT_TEMPERATURE: 'warm' }, /ASSISTANT_TEMPERATURE: /],
  [
    'an API version that is not a date',
    { ANTHROPIC_API_VERSION: 'latest' },
    /ANTHROPIC_API_VERSION: an API version date such as 2023-06-01/,
  ],
  ['a gateway that is not a URL', { ANTHROPIC_BASE_URL: 'gateway' }, /ANTHROPIC_BASE_URL: /],
  ['a CUR version that is neither 1, 2 nor auto', { COST_CUR_VERSION: '3' }, /COST_CUR_VERSION: /],
  [
    'an output location that is not on S3',
    { COST_ATHENA_OUTPUT_LOCATION: 'https://bucket' },
    /COST_ATHENA_OUTPUT_LOCATION: must be an s3:\/\/ URL/,
  ],
  [
    'an Athena database without its table, output location and region',
    { COST_ATHENA_DATABASE: 'billing' },
    /COST_ATHENA_TABLE, COST_ATHENA_OUTPUT_LOCATION, AWS_REGION: required when COST_ATHENA_DATABASE is set/,
  ],
  [
    'an embeddings endpoint without its model and dimension',
    { EMBEDDINGS_URL: 'https://e.example' },
    /EMBEDDINGS_MODEL, EMBEDDINGS_DIM: required when EMBEDDINGS_URL is set/,
  ],
  ['a collection name Milvus refuses', { MILVUS_COLLECTION: 'run-books' }, /MILVUS_COLLECTION: /],
];
for (const [title, env, message] of bad) {
  test(`${title} is refused with one line naming the variable`, (t) => {
    const error = t.throws(() => loadConfig(env), { instanceOf: ConfigError });
    t.regex(error!.message, message);
    t.false(error!.message.includes('\n'));
  });
}

test('the model key never appears in a configuration error', (t) => {
  const error = t.throws(() => loadConfig({ ANTHROPIC_API_KEY: 'sk-ant-secret-value', ASSISTANT_MAX_ROUNDS: '0' }), {
    instanceOf: ConfigError,
  });
  t.false(error!.message.includes('sk-ant-secret-value'));
});
