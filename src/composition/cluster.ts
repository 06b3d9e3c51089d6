/**
 * Composition of the cluster: this instance's membership and what it reports about the work it
 * owns. With MONGODB_URL set, instances are members of a cluster through leases in that database
 * (src/cluster/mongodb-membership.ts): every instance pointed at the same EventStoreDB and MongoDB
 * shares the rules, incidents and sync jobs with the others. The embedded stores are one instance
 * per DATA_DIR (solo: it owns everything).
 *
 * A member holds its lease only while it can do its work (src/cluster/lease-decision.ts): the log
 * and the read store answer, and neither the evaluator's tick nor an escalation reconcile is stuck.
 */
import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from '../config.js';
import { loadOrCreateInstanceId } from '../instance-id.js';
import { soloMembership, type Membership } from '../cluster/membership.js';
import { clusterMetrics, type OwnedWorkKind } from '../cluster/cluster-metrics.js';
import { loopProgress, type LoopProgress } from '../cluster/loop-progress.js';
import { createMemberHealth } from '../cluster/member-health.js';
import { createMongoMembership } from '../cluster/mongodb-membership.js';

export interface ClusterComposition {
  membership: Membership;
  /** How much of each kind of work this instance owns now (metrics). */
  reportOwned(kind: OwnedWorkKind, count: number): void;
  /** The work loops whose progress decides whether this member keeps its lease. */
  loops: { evaluator: LoopProgress; escalation: LoopProgress };
}

export function composeCluster(deps: {
  config: Config;
  db?: Db;
  now: () => Date;
  logger: Logger;
  registry: Registry;
  /** What the member's health is judged by: a read of each store, and the log's refused appends. */
  probes: {
    log: () => Promise<void>;
    store: () => Promise<void>;
    appendsRefused: () => { since: Date; lastAt: Date } | undefined;
  };
}): ClusterComposition {
  const { config } = deps;
  const self = loadOrCreateInstanceId(config.dataDir);
  const metrics = clusterMetrics(deps.registry);
  const epochMs = () => deps.now().getTime();
  const loops = { evaluator: loopProgress('evaluator tick', epochMs), escalation: loopProgress('escalation', epochMs) };
  const reportOwned = (kind: OwnedWorkKind, count: number) => metrics.ownedWork.set({ kind }, count);
  if (!deps.db) {
    metrics.members.set(1);
    return { membership: soloMembership(self), reportOwned, loops };
  }
  const health = createMemberHealth({
    now: epochMs,
    bounds: config.memberHealth,
    probeLog: deps.probes.log,
    probeStore: deps.probes.store,
    appendsRefused: () => {
      const refusal = deps.probes.appendsRefused();
      return refusal ? { since: refusal.since.getTime(), lastAt: refusal.lastAt.getTime() } : null;
    },
    loops: [loops.evaluator, loops.escalation],
  });
  const leased = createMongoMembership({
    db: deps.db,
    self,
    now: deps.now,
    ...config.cluster,
    logger: deps.logger,
    metrics,
    assess: health.assess,
  });
  const membership: Membership = {
    ...leased,
    async start() {
      health.start();
      await leased.start();
    },
    async stop() {
      health.stop();
      await leased.stop();
    },
  };
  return { membership, reportOwned, loops };
}
