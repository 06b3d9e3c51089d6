// The Milvus stand-in keeps the rules the real server has, through the real SDK: insert does not
// deduplicate primary keys, upsert replaces, and a read below Strong consistency may not see the
// latest write (https://milvus.io/docs/consistency.md), so tests over it can fail for those reasons.
import { ConsistencyLevelEnum, DataType, MilvusClient } from '@zilliz/milvus2-sdk-node';
import test from 'ava';
import { startMilvusStandin } from './support/milvus-standin/server.js';

test('insert keeps duplicate ids, upsert replaces them; a Bounded count right after a write is stale, a Strong one is not', async (t) => {
  const standin = await startMilvusStandin();
  const client = new MilvusClient({
    address: standin.address,
    maxRetries: 0,
    logLevel: 'warn',
    telemetry: { enabled: false },
  });
  t.teardown(async () => {
    await client.closeConnection();
    await standin.stop();
  });
  const collection_name = 'c';
  await client.createCollection({
    collection_name,
    fields: [
      { name: 'id', data_type: DataType.VarChar, is_primary_key: true, max_length: 16 },
      { name: 'vector', data_type: DataType.FloatVector, dim: 2 },
    ],
  });
  await client.createIndex({ collection_name, field_name: 'vector', index_type: 'FLAT', metric_type: 'COSINE' });
  await client.loadCollection({ collection_name });
  const row = { id: 'a', vector: [1, 0] };
  const count = async (consistency_level: ConsistencyLevelEnum) =>
    Number(
      (await client.query({ collection_name, output_fields: ['count(*)'], consistency_level })).data[0]!['count(*)'],
    );

  await client.insert({ collection_name, data: [row] });
  await client.insert({ collection_name, data: [row] });
  t.is(await count(ConsistencyLevelEnum.Bounded), 0, 'a Bounded read right after the writes does not see them');
  t.is(await count(ConsistencyLevelEnum.Strong), 2, 'insert does not deduplicate the primary key');
  await client.upsert({ collection_name, data: [row] });
  t.is(await count(ConsistencyLevelEnum.Bounded), 2, 'stale again: the upsert is not visible yet');
  t.is(await count(ConsistencyLevelEnum.Strong), 1, 'upsert replaced both entities with id a');
});
