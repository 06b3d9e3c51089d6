/**
 * Issue 39, item 1: a member that loses its EventStoreDB link (but keeps MongoDB) gives its lease up
 * and its share is paged by the others; it takes the share back once the link returns. Two platform
 * processes on the protocol stand-ins (real servers when EVENTSTORE_URL and MONGODB_URL name a
 * single-node EventStoreDB and a MongoDB); instance 1 reaches EventStoreDB through a TCP proxy that
 * the test cuts (every connection reset, new ones refused) before the incidents exist.
 *
 * Short leases keep it cheap: lease 3 s, renewal 1 s, the unhealthy bound 2 s, a tick every 2 s.
 * The promise is that a page is late by at most lease + interval + bound; the link stays cut until
 * every page has arrived, so a member that kept its lease (today's failure: its pages waited for the
 * whole outage) fails the deadline.
 */
import test from 'ava';
import { chooseClusterBackends, startClusterBackends, type ClusterBackends } from './support/cluster-backends.js';
import { startCluster, type Cluster } from './support/cluster-harness.js';
import {
  breachingRules,
  createPagingSetup,
  createRules,
  pagesOf,
  stagePages,
  type PagingSetup,
} from './support/cluster-workload.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';
import type { Caller } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const LEASE_S = 3;
const RENEW_S = 1;
const BOUND_S = 2;
const INTERVAL_S = 2;
/** What the bound does not count on a loaded 2-core machine: the tick's own reads and appends, the scrapes. */
const SLACK_MS = 6000;
const PAGE_BOUND_MS = (LEASE_S + INTERVAL_S + BOUND_S) * 1000 + SLACK_MS;
/** 14 rules over the 7 metrics: 7 buckets, 14 incidents, so the cut member owns some of each (all but surely). */
const RULES = 14;

const choice = chooseClusterBackends();
const singleNode = (url: string) => /^esdb:\/\/[^,/?]+:\d+/.exec(url) !== null;

interface World {
  backends: ClusterBackends;
  proxy: TcpProxy;
  cluster: Cluster;
  caller: Caller;
  paging: PagingSetup;
  incidents: string[];
}
const world: Partial<World> = {};
const need = <K extends keyof World>(key: K): World[K] => {
  if (world[key] === undefined) throw new Error(`an earlier step did not get as far as ${key}`);
  return world[key] as World[K];
};
const membersSeen = async (cluster: Cluster) =>
  Promise.all([0, 1].map(async (i) => (await cluster.metrics(i)).sum('cluster_members')));

if (choice.mode === 'skip' || (choice.mode === 'real' && !singleNode(choice.eventStoreUrl))) {
  test.skip('a member cut from EventStoreDB: skipped, it needs the stand-ins or a single-node EVENTSTORE_URL and MONGODB_URL', () => {});
} else {
  test.before(async (t) => {
    t.timeout(120_000);
    const started = Date.now();
    world.backends = await startClusterBackends(choice);
    const esdb = new URL(world.backends.eventStoreUrl.replace(/^esdb:/, 'http:'));
    world.proxy = await startTcpProxy({ host: esdb.hostname, port: Number(esdb.port) });
    const proxied = world.backends.eventStoreUrl.replace(
      `${esdb.hostname}:${esdb.port}`,
      `127.0.0.1:${world.proxy.port}`,
    );
    world.cluster = await startCluster({
      size: 2,
      backends: world.backends,
      intervalSeconds: INTERVAL_S,
      env: {
        CLUSTER_LEASE_SECONDS: String(LEASE_S),
        CLUSTER_RENEW_SECONDS: String(RENEW_S),
        MEMBER_UNHEALTHY_LEASE_RELEASE_SECONDS: String(BOUND_S),
      },
      envOf: (index): Record<string, string> => (index === 1 ? { EVENTSTORE_URL: proxied } : {}),
    });
    world.caller = world.cluster.newTenant();
    world.paging = await createPagingSetup(world.cluster, world.caller, 0);
    await waitFor(async () => (await membersSeen(world.cluster!)).every((n) => n === 2), {
      timeoutMs: 20_000,
      intervalMs: 200,
      message: 'two members',
    });
    t.log(`stand-ins, proxy and two platforms up in ${Date.now() - started} ms`);
  });

  test.after.always(async () => {
    await world.cluster?.stop();
    await world.paging?.receiver.stop();
    await world.proxy?.stop();
    await world.backends?.stop();
  });

  test.serial(
    `instance 1 cut from EventStoreDB before its incidents exist: it gives its lease up, and every stage 1 is paged within lease + interval + bound (${PAGE_BOUND_MS / 1000} s with slack) while the link is still cut`,
    async (t) => {
      t.timeout(60_000);
      const cluster = need('cluster');
      const { receiver, policyId } = need('paging');
      need('proxy').cut();
      const createdAt = Date.now();
      const ruleIds = await createRules(cluster, need('caller'), breachingRules(RULES, policyId, 'cut'), [0], 4);
      t.is(ruleIds.length, RULES);
      try {
        await waitFor(
          () =>
            new Set(
              pagesOf(receiver)
                .filter((p) => p.stageOrder === 1)
                .map((p) => p.incidentId),
            ).size >= RULES,
          {
            timeoutMs: PAGE_BOUND_MS,
            intervalMs: 100,
            message: `stage 1 of ${RULES} incidents`,
          },
        );
      } catch (error) {
        const seen = await membersSeen(cluster).catch(() => ['?', '?']);
        t.fail(
          `${(error as Error).message}: ${new Set(pagesOf(receiver).map((p) => p.incidentId)).size} paged; cluster_members ${seen.join(', ')}`,
        );
        return;
      }
      const pages = pagesOf(receiver).filter((p) => p.stageOrder === 1);
      const latest = Math.max(...pages.map((p) => p.receivedAt)) - createdAt;
      t.log(`last stage 1 page ${latest} ms after the cut (bound ${PAGE_BOUND_MS} ms)`);
      world.incidents = [...new Set(pages.map((p) => p.incidentId))];
      const [cut, survivor] = await Promise.all([cluster.metrics(1), cluster.metrics(0)]);
      t.is(cut.sum('cluster_members'), 0, 'the cut member is out: it owns nothing');
      t.true(cut.sum('cluster_lease_releases_total') >= 1, 'it gave its lease up (cluster_lease_releases_total)');
      t.is(survivor.sum('cluster_members'), 1, 'the survivor sees itself alone');
      t.is(survivor.sum('cluster_owned_work', { kind: 'rules' }), RULES, 'and evaluates every rule');
    },
  );

  test.serial('when the link returns, instance 1 rejoins and takes its share back; no page was doubled', async (t) => {
    t.timeout(60_000);
    const cluster = need('cluster');
    need('proxy').restore();
    const restoredAt = Date.now();
    try {
      await waitFor(
        async () => {
          const [survivor, returned] = await Promise.all([cluster.metrics(0), cluster.metrics(1)]);
          return (
            survivor.sum('cluster_members') === 2 &&
            returned.sum('cluster_members') === 2 &&
            returned.sum('cluster_owned_work', { kind: 'rules' }) > 0 &&
            // Each reports its share at the start of its tick: both have ticked since.
            survivor.sum('cluster_owned_work', { kind: 'rules' }) +
              returned.sum('cluster_owned_work', { kind: 'rules' }) ===
              RULES
          );
        },
        { timeoutMs: 30_000, intervalMs: 200, message: 'two members, instance 1 owning rules again' },
      );
    } catch (error) {
      t.fail(`${(error as Error).message}: cluster_members ${(await membersSeen(cluster)).join(', ')}`);
      return;
    }
    t.log(`instance 1 back with a share ${Date.now() - restoredAt} ms after the link returned`);
    const pages = pagesOf(need('paging').receiver);
    for (const incident of need('incidents'))
      t.is(stagePages(pages, incident, 1).length, 1, `incident ${incident}: stage 1 paged once`);
  });
}
