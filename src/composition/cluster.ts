/**
 * Composition of the cluster: this instance's membership and what it reports about the work it
 * owns. The embedded stores are one instance per DATA_DIR (solo: it owns everything).
 */
import type { Config } from '../config.js';
import { loadOrCreateInstanceId } from '../instance-id.js';
import { soloMembership, type Membership } from '../cluster/membership.js';

export interface ClusterComposition {
  membership: Membership;
  /** How much of each kind of work this instance owns now (metrics). */
  reportOwned(kind: 'rules' | 'incidents' | 'sync_jobs', count: number): void;
}

export function composeCluster(config: Config): ClusterComposition {
  const self = loadOrCreateInstanceId(config.dataDir);
  return { membership: soloMembership(self), reportOwned: () => {} };
}
