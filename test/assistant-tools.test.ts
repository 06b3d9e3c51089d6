/**
 * The tool registry: names, schemas the model can read, inputs that cannot name a tenant or an
 * environment, and every tool answering its own example with data its output schema describes.
 */
import test from 'ava';
import { z } from 'zod';
import { uniquelyNamed } from '../src/assistant/tools/index.js';
import { warehouseTools } from '../src/assistant/tools/warehouse/index.js';
import { inputJsonSchema } from '../src/assistant/tool-schemas.js';
import { createEmbeddedCostStore } from '../src/gateways/cost/embedded/embedded-cost-store.js';
import { createSimulatedWarehouse } from '../src/gateways/warehouse/simulated/simulated-gateway.js';
import { arraysOf, embeddedTools, scopeOf } from './support/assistant-fixtures.js';

const tools = embeddedTools();
const COST_AND_DOCS = 7;

test('the registry holds the warehouse tools, the 6 cost tools and the runbook search, uniquely named', (t) => {
  const warehouse = warehouseTools(createSimulatedWarehouse({ now: () => new Date() }).gateway);
  t.is(tools.length, COST_AND_DOCS + warehouse.length);
  t.is(tools.filter((tool) => tool.family === 'cost').length, 6);
  t.deepEqual(
    tools.filter((tool) => tool.family === 'docs').map((tool) => tool.name),
    ['search_runbooks'],
  );
  t.is(tools.filter((tool) => tool.family === 'warehouse').length, warehouse.length);
  t.is(new Set(tools.map((tool) => tool.name)).size, tools.length);
});

test('two tools of one name, or a name the model cannot call, are refused when the registry is built', (t) => {
  const [first] = tools;
  t.throws(() => uniquelyNamed([first!, first!]), { message: /two tools are named/ });
  t.throws(() => uniquelyNamed([{ ...first!, name: 'Cost By Service' }]), { message: /snake_case/ });
});

for (const tool of tools) {
  test(`${tool.name}: its input schema is a strict object the model can read, without tenant or environment`, (t) => {
    const schema = inputJsonSchema(tool) as {
      type: string;
      properties?: Record<string, unknown>;
      additionalProperties?: unknown;
    };
    t.is(schema.type, 'object');
    t.is(schema.additionalProperties, false, 'unknown fields are refused');
    t.deepEqual(
      Object.keys(schema.properties ?? {}).filter((name) => /tenant|env/i.test(name)),
      [],
    );
    t.true(tool.description.length >= 40, 'a description the model can choose by');
    t.true(tool.input.safeParse(tool.example).success, 'its example is valid');
    for (const field of ['env_id', 'envId', 'tenant_id', 'environment']) {
      t.false(tool.input.safeParse({ ...(tool.example as object), [field]: 'another' }).success, `${field} is refused`);
    }
  });

  test(`${tool.name}: its example answers what its output schema describes`, async (t) => {
    const output = await tool.run(tool.input.parse(tool.example), scopeOf('tenant-a', 'env-prod'));
    t.true(
      tool.output.safeParse(output).success,
      JSON.stringify(z.treeifyError(tool.output.safeParse(output).error ?? new z.ZodError([]))),
    );
    // The embedded cost bill and runbook index always have something to say about the examples.
    if (tool.family !== 'warehouse') {
      const arrays = arraysOf(output).filter((site) => !site.path.slice(1).includes('/'));
      t.true(
        arrays.length === 0
          ? JSON.stringify(output).match(/"forecast":[1-9]/) !== null
          : arrays.every((site) => site.length > 0),
        JSON.stringify(output).slice(0, 300),
      );
    }
  });
}

const tool = (name: string) => tools.find((candidate) => candidate.name === name)!;

test('cost tools answer for the scope they are given: another environment gets another bill', async (t) => {
  const byService = tool('cost_by_service');
  const input = byService.input.parse({ from: '2026-10-01', to: '2026-10-31' });
  const prod = await byService.run(input, scopeOf('tenant-a', 'env-prod'));
  const dev = await byService.run(input, scopeOf('tenant-a', 'env-dev'));
  const otherTenant = await byService.run(input, scopeOf('tenant-b', 'env-prod'));
  t.notDeepEqual(prod, dev);
  t.notDeepEqual(prod, otherTenant);
  const direct = await createEmbeddedCostStore().costByService(
    { tenantId: 'tenant-a', environmentId: 'env-prod' },
    { from: '2026-10-01', to: '2026-10-31' },
  );
  t.deepEqual(
    (prod as { services: { service: string; cost: number }[] }).services.map(({ service, cost }) => ({
      service,
      cost,
    })),
    direct,
  );
});

test('a cost range defaults to the 30 days ending today and may not reach past today', async (t) => {
  const byService = tool('cost_by_service');
  const now = new Date('2026-11-23T10:00:00Z');
  const answer = (await byService.run(byService.input.parse({}), scopeOf('t', 'e', now))) as {
    from: string;
    to: string;
  };
  t.deepEqual({ from: answer.from, to: answer.to }, { from: '2026-10-25', to: '2026-11-23' });
  await t.throwsAsync(byService.run(byService.input.parse({ to: '2026-11-24' }), scopeOf('t', 'e', now)), {
    message: /after today/,
  });
  const forecast = tool('month_end_forecast');
  await t.throwsAsync(forecast.run(forecast.input.parse({ as_of: '2026-12-01' }), scopeOf('t', 'e', now)), {
    message: /after today/,
  });
  const trend = tool('cost_trend');
  const monthly = (await trend.run(trend.input.parse({ granularity: 'monthly' }), scopeOf('t', 'e', now))) as {
    points: unknown[];
  };
  t.true(monthly.points.length >= 6, 'monthly points over the default 180 days');
});

test('the runbook search cites runbook § section, and finds the queue-waits runbook for queueing', async (t) => {
  const search = tool('search_runbooks');
  const output = (await search.run(
    search.input.parse({ query: 'queries wait in the WLM queue before they start' }),
    scopeOf('t', 'e'),
  )) as {
    results: { citation: string; runbook: string; section: string }[];
  };
  t.is(output.results.length, 3);
  t.is(output.results[0]!.runbook, 'queue-waits');
  for (const result of output.results) t.is(result.citation, `${result.runbook} § ${result.section}`);
  t.false(search.input.safeParse({ query: '   ' }).success, 'a blank query is refused');
});

test('the Redshift breakdown names node hours, storage, concurrency scaling and Spectrum', async (t) => {
  const breakdown = tool('redshift_cost_breakdown');
  const output = (await breakdown.run(
    breakdown.input.parse({ from: '2026-10-01', to: '2026-10-31' }),
    scopeOf('t', 'e'),
  )) as {
    usage_types: { category: string; share_pct: number }[];
  };
  t.deepEqual(output.usage_types.map((u) => u.category).sort(), [
    'Spectrum scans',
    'concurrency scaling',
    'managed storage',
    'node hours',
  ]);
  const shares = output.usage_types.reduce((sum, u) => sum + u.share_pct, 0);
  t.true(Math.abs(shares - 100) < 0.5, `shares add up to ${shares}`);
});
