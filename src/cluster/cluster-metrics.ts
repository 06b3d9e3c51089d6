/**
 * Prometheus metrics of cluster membership (issue 28, part 5): what this instance sees of the
 * cluster, how much work it owns, and how its lease and the others' leases fare. Created once per
 * registry, so the membership and every consumer that reports owned work share the instruments.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

export type OwnedWorkKind = 'rules' | 'incidents' | 'sync_jobs';

export interface ClusterMetrics {
  /** Live members this instance sees (0 while its own lease has lapsed). */
  readonly members: Gauge;
  /** Work items this instance owns now, per kind; set by the composition (src/composition/cluster.ts). */
  readonly ownedWork: Gauge<'kind'>;
  /** Lease renewals of this instance, `ok` or `failed`. */
  readonly leaseRenewals: Counter<'outcome'>;
  /** Members this instance saw disappear because their lease lapsed (not a graceful leave). */
  readonly takeovers: Counter;
  /** Changes of the member list this instance sees. */
  readonly membershipChanges: Counter;
  /** Leases this instance gave up because it could not do its work (lease-decision.ts). */
  readonly leaseReleases: Counter;
}

const created = new WeakMap<Registry, ClusterMetrics>();

export function clusterMetrics(registry: Registry): ClusterMetrics {
  const existing = created.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const metrics: ClusterMetrics = {
    members: new Gauge({ name: 'cluster_members', help: 'Live cluster members this instance sees', registers }),
    ownedWork: new Gauge({
      name: 'cluster_owned_work',
      help: 'Work items this instance owns among the live members, by kind',
      labelNames: ['kind'] as const,
      registers,
    }),
    leaseRenewals: new Counter({
      name: 'cluster_lease_renewals_total',
      help: 'Lease renewals of this instance by outcome (ok, failed)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    takeovers: new Counter({
      name: 'cluster_takeovers_total',
      help: 'Members this instance saw disappear because their lease lapsed (their work was taken over)',
      registers,
    }),
    membershipChanges: new Counter({
      name: 'cluster_membership_changes_total',
      help: 'Changes of the live member list this instance sees',
      registers,
    }),
    leaseReleases: new Counter({
      name: 'cluster_lease_releases_total',
      help: 'Leases this instance gave up because it could not reach its stores or a work loop was stuck',
      registers,
    }),
  };
  created.set(registry, metrics);
  return metrics;
}
