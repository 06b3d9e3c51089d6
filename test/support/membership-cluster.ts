/**
 * Several MongoDB memberships as separate "processes" on one server, in one virtual clock: each
 * member has its own client, metrics registry, log and timer group, so a member can crash
 * (`clock.halt`) while the others keep going.
 */
import { MongoClient } from 'mongodb';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { clusterMetrics } from '../../src/cluster/cluster-metrics.js';
import type { Membership } from '../../src/cluster/membership.js';
import { createMongoMembership, type MongoMembershipOptions } from '../../src/cluster/mongodb-membership.js';
import type { VirtualClock } from './virtual-clock.js';

export const LEASE_MS = 10_000;
export const RENEW_EVERY_MS = 3_000;

export interface SimulatedMember {
  id: string;
  membership: Membership;
  /** Every list the change listener received, in order. */
  changes: (readonly string[])[];
  logs: { level: number; msg: string }[];
  registry: Registry;
  /** The value of one of the cluster counters or gauges (labels as given). */
  metric(name: string, labels?: Record<string, string>): Promise<number>;
}

/**
 * Connects before the member starts, retrying for a while: a test may give the client a server
 * selection timeout of a few ms (to fail fast once the server is gone), too short for a first
 * connection on a busy machine, and a first renewal that fails would change what the test sees.
 */
async function connected(client: MongoClient, deadline = Date.now() + 10_000): Promise<void> {
  for (;;) {
    try {
      await client.connect();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

export function membershipCluster(url: string, database: string, clock: VirtualClock) {
  const clients: MongoClient[] = [];
  let incarnation = 0;
  return {
    /** Starts a member (its first renewal awaited); `group` names its timers, to halt it later. */
    async join(
      id: string,
      group = `${id}#${++incarnation}`,
      assess?: MongoMembershipOptions['assess'],
    ): Promise<SimulatedMember & { group: string }> {
      const client = new MongoClient(url);
      clients.push(client);
      await connected(client);
      const registry = new Registry();
      const logs: SimulatedMember['logs'] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
      const membership = createMongoMembership({
        db: client.db(database),
        self: id,
        now: clock.now,
        leaseMs: LEASE_MS,
        renewEveryMs: RENEW_EVERY_MS,
        timers: clock.timers(group),
        logger,
        metrics: clusterMetrics(registry),
        assess,
      });
      const changes: (readonly string[])[] = [];
      membership.onChange((members) => changes.push(members));
      await membership.start();
      const metric = async (name: string, labels: Record<string, string> = {}) => {
        const found = (await registry.getMetricsAsJSON()).find((entry) => entry.name === name);
        const value = found?.values.find((entry) =>
          Object.entries(labels).every(([key, label]) => entry.labels[key] === label),
        );
        return value?.value ?? 0;
      };
      return { id, group, membership, changes, logs, registry, metric };
    },
    async close(): Promise<void> {
      await Promise.all(clients.map((client) => client.close(true)));
    },
  };
}
