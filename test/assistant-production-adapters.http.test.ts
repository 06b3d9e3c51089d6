/**
 * The assistant on its production adapters, chosen by configuration alone: the cost tools on
 * Athena (the AWS SDK's default chain: credentials and the Athena endpoint from the environment,
 * here the Athena stand-in) and the runbook search on Milvus (the gRPC stand-in), the model being
 * the Messages API stand-in.
 */
import test from 'ava';
import { createEmbeddedCostStore } from '../src/gateways/cost/embedded/embedded-cost-store.js';
import { startAnthropicStandin, text, toolResults, toolUse } from './support/anthropic-standin.js';
import { curAnswerer, startAthenaStandin } from './support/athena-standin.js';
import { startMilvusStandin } from './support/milvus-standin/server.js';
import { startTestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

test('cost answers come from Athena and runbook passages from Milvus when they are configured', async (t) => {
  const athena = await startAthenaStandin();
  const milvus = await startMilvusStandin();
  const model = await startAnthropicStandin((request) =>
    request.index === 0
      ? {
          content: [
            toolUse('cost_by_service', { from: '2026-10-01', to: '2026-10-31' }),
            toolUse('search_runbooks', { query: 'disk spill to temporary blocks' }),
          ],
        }
      : { content: [text(JSON.stringify(toolResults(request)))] },
  );
  // The AWS SDK's default chain reads these; this test file runs in its own process.
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: 'AKIDSTANDIN',
    AWS_SECRET_ACCESS_KEY: 'standin-secret',
    AWS_ENDPOINT_URL_ATHENA: athena.url,
  });
  const app = await startTestApp({
    env: {
      ANTHROPIC_API_KEY: 'sk-ant-standin',
      ANTHROPIC_BASE_URL: model.url,
      COST_ATHENA_DATABASE: 'billing',
      COST_ATHENA_TABLE: 'cur',
      COST_ATHENA_WORKGROUP: 'analytics',
      COST_ATHENA_OUTPUT_LOCATION: 's3://cost-results/athena/',
      AWS_REGION: 'us-east-1',
      MILVUS_ADDRESS: milvus.address,
      MILVUS_COLLECTION: 'platform_runbooks',
    },
  });
  try {
    const caller = app.newTenant();
    athena.script(
      curAnswerer({ tenantId: caller.tenantId, table: 'cur', environmentColumn: 'resource_tags_user_environment_id' }),
    );
    await waitFor(
      async () => (await app.request('GET', '/api/v1/ask/health', { caller })).body.data.vector_store.index === 'ready',
      { timeoutMs: 10_000, message: 'runbooks indexed in Milvus' },
    );
    const health = (await app.request('GET', '/api/v1/ask/health', { caller })).body.data;
    t.like(health.cost_store, { adapter: 'athena', database: 'billing', workgroup: 'analytics', cur_version: 'auto' });
    t.like(health.vector_store, { adapter: 'milvus', status: 'up' });
    t.true(milvus.collections.get('platform_runbooks')!.rows().length > 10);

    const response = await app.request('POST', '/ask', {
      caller,
      body: { prompt: 'what did October cost, and what about disk spill?' },
    });
    t.is(response.status, 200, JSON.stringify(response.body));
    const [cost, runbooks] = JSON.parse(response.body.response) as { content: string; is_error: boolean }[];
    t.false(cost!.is_error, cost!.content);
    const bill = await createEmbeddedCostStore().costByService(
      { tenantId: caller.tenantId, environmentId: caller.envId },
      { from: '2026-10-01', to: '2026-10-31' },
    );
    t.deepEqual(
      (JSON.parse(cost!.content) as { services: { service: string; cost: number }[] }).services.map(
        ({ service, cost: amount }) => ({ service, cost: amount }),
      ),
      bill,
    );
    // Besides the question: the CUR version read once from information_schema, and the refresh status.
    const questions = athena.queries.filter((query) => query.sql.startsWith('-- cost-question: cost-by-service'));
    t.is(questions.length, 1);
    t.like(questions[0], { workGroup: 'analytics', outputLocation: 's3://cost-results/athena/', database: 'billing' });
    t.true(questions[0]!.parameters[0]!.includes(caller.envId), "the query is scoped to the token's environment");
    t.false(runbooks!.is_error, runbooks!.content);
    const passages = JSON.parse(runbooks!.content) as { results: { citation: string; runbook: string }[] };
    t.is(passages.results[0]!.runbook, 'disk-spill');
    t.true(milvus.calls.includes('Search'));
  } finally {
    await app.close();
    await model.close();
    await milvus.stop();
    await athena.close();
  }
});
