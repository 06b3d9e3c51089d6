/**
 * Composition of the cluster: this instance's membership and what it reports about the work it
 * owns. With MONGODB_URL set, instances are members of a cluster through leases in that database
 * (src/cluster/mongodb-membership.ts): every instance pointed at the same EventStoreDB and MongoDB
 * shares the rules, incidents and sync jobs with the others. The embedded stores are one instance
 * per DATA_DIR (solo: it owns everything).
 */
import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from '../config.js';
import { loadOrCreateInstanceId } from '../instance-id.js';
import { soloMembership, type Membership } from '../cluster/membership.js';
import { clusterMetrics, type OwnedWorkKind } from '../cluster/cluster-metrics.js';
import { createMongoMembership } from '../cluster/mongodb-membership.js';

export interface ClusterComposition {
  membership: Membership;
  /** How much of each kind of work this instance owns now (metrics). */
  reportOwned(kind: OwnedWorkKind, count: number): void;
}

export function composeCluster(deps: {
  config: Config;
  db?: Db;
  now: () => Date;
  logger: Logger;
  registry: Registry;
}): ClusterComposition {
  const { config } = deps;
  const self = loadOrCreateInstanceId(config.dataDir);
  const metrics = clusterMetrics(deps.registry);
  const membership = deps.db
    ? createMongoMembership({ db: deps.db, self, now: deps.now, ...config.cluster, logger: deps.logger, metrics })
    : soloMembership(self);
  if (!deps.db) metrics.members.set(1);
  return { membership, reportOwned: (kind, count) => metrics.ownedWork.set({ kind }, count) };
}
