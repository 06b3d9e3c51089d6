/**
 * A provisioned cluster's storage capacity from STV_NODE_STORAGE_CAPACITY, one row per node. On
 * RA3 "this capacity is the same as the total managed storage quota for the cluster"
 * (https://docs.aws.amazon.com/redshift/latest/dg/r_STV_NODE_STORAGE_CAPACITY.html): every node
 * repeats the cluster's quota, so summing the rows counts it once per node. On DC2 each row is
 * the node's own local disk and the rows add up.
 *
 * The view does not say the node type. Every node repeating one capacity of at least
 * MANAGED_QUOTA_MIN_MB is read as the RA3 quota: a DC2 node has at most about 2.6 TB of local
 * disk, while an RA3 cluster of two or more nodes has at least 16 TB of managed storage (8 TB
 * per ra3.large node). A single node's row is the same either way.
 */

/** 8 TB in 1 MB blocks: above any DC2 node's local disk, at most an RA3 node's share of the quota. */
export const MANAGED_QUOTA_MIN_MB = 8 * 1024 * 1024;

export function clusterCapacityMb(nodeCapacitiesMb: readonly number[]): number {
  const [first] = nodeCapacitiesMb;
  const repeatsQuota =
    first !== undefined && first >= MANAGED_QUOTA_MIN_MB && nodeCapacitiesMb.every((capacity) => capacity === first);
  return repeatsQuota ? first : nodeCapacitiesMb.reduce((sum, capacity) => sum + capacity, 0);
}

/** The same rule in SQL over stv_node_storage_capacity's `capacity` column (aggregate context). */
export const CLUSTER_CAPACITY_SQL = `CASE WHEN MIN(capacity) = MAX(capacity) AND MAX(capacity) >= ${MANAGED_QUOTA_MIN_MB} THEN MAX(capacity) ELSE SUM(capacity) END`;
