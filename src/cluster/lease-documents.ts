/**
 * The lease documents in MongoDB, one per member in `cluster_members`:
 * {_id: member, renewedAt, expiresAt, startedAt, pid, host}. The TTL index on `expiresAt` only
 * collects the documents of members that are gone for good: the server's TTL monitor runs once
 * every 60 s and may run late, so liveness never depends on it.
 */
import { hostname } from 'node:os';
import type { Db } from 'mongodb';

export const MEMBERS_COLLECTION = 'cluster_members';
const TTL_INDEX = 'cluster_members_expiry';

interface MemberDocument {
  _id: string;
  renewedAt: Date;
  expiresAt: Date;
  startedAt: Date;
  pid: number;
  host: string;
}

export function leaseDocuments(db: Db, self: string) {
  const leases = db.collection<MemberDocument>(MEMBERS_COLLECTION);
  const host = hostname();
  let ttlIndexReady = false;
  return {
    /** Upserts this member's lease. */
    async renew(renewedAt: Date, expiresAt: Date, startedAt: Date): Promise<void> {
      await leases.updateOne(
        { _id: self },
        { $set: { renewedAt, expiresAt, startedAt, pid: process.pid, host } },
        { upsert: true },
      );
    },
    async remove(): Promise<void> {
      await leases.deleteOne({ _id: self });
    },
    /** Every lease that runs past `at`: member → expiry (epoch ms). */
    async live(at: Date): Promise<Map<string, number>> {
      const found = await leases
        .find({ expiresAt: { $gt: at } }, { projection: { _id: 1, expiresAt: 1 }, sort: { _id: 1 } })
        .toArray();
      return new Map(found.map((member) => [member._id, member.expiresAt.getTime()]));
    },
    async ensureTtlIndex(): Promise<void> {
      if (ttlIndexReady) return;
      // expireAfterSeconds 0: a document may be collected once its own expiresAt has passed.
      await leases.createIndex({ expiresAt: 1 }, { name: TTL_INDEX, expireAfterSeconds: 0 });
      ttlIndexReady = true;
    },
  };
}
