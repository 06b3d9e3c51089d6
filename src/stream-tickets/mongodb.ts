/**
 * Stream tickets in MongoDB (collection `stream_tickets`), so that every instance of a cluster
 * redeems a ticket any other issued (the rules: src/stream-tickets/store.ts).
 *
 * - A document is keyed by the ticket's SHA-256: whoever reads the collection learns no ticket.
 * - Redeeming is one findOneAndDelete filtered on the expiry: of two instances shown the same
 *   ticket, exactly one gets the document. The TTL index only collects expired documents (its
 *   monitor runs every 60 s, so it is never what enforces the expiry).
 * - The live-ticket limits are checked after the insert, counting what is live including the new
 *   ticket; over a limit, the new ticket is deleted again and the ask refused. Two instances
 *   issuing at once may then both refuse the last place, but a limit is never exceeded.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import type { Principal } from '../access/principal.js';
import { sharedCollection } from '../readstore/mongodb-shared-collection.js';
import {
  holderOf,
  limitsWithDefaults,
  perPrincipalRefusal,
  perTenantRefusal,
  refusal,
  ticketHash,
  type StreamTicketLimits,
  type StreamTicketStore,
} from './store.js';

export const STREAM_TICKETS_COLLECTION = 'stream_tickets';

interface TicketDocument {
  /** The ticket's SHA-256, hex. */
  _id: string;
  tenantId: string;
  holder: string;
  path: string;
  principal: Principal;
  expiresAt: Date;
}

export function createMongoStreamTicketStore(db: Db, options: StreamTicketLimits): StreamTicketStore {
  const { now, ttlMs, perPrincipal, perTenant } = limitsWithDefaults(options);
  const { collection: tickets, use } = sharedCollection<TicketDocument>(db, STREAM_TICKETS_COLLECTION, [
    { key: { expiresAt: 1 }, name: 'expiry_ttl', expireAfterSeconds: 0 },
    { key: { tenantId: 1, holder: 1, expiresAt: 1 }, name: 'holder_live' },
    { key: { tenantId: 1, expiresAt: 1 }, name: 'tenant_live' },
  ]);
  const oldestExpiry = async (filter: object, fallback: number) =>
    (
      await tickets.find(filter, { sort: { expiresAt: 1 }, limit: 1, projection: { expiresAt: 1 } }).next()
    )?.expiresAt.getTime() ?? fallback;

  return {
    issue: (principal, path) =>
      use(async () => {
        const at = now().getTime();
        const ticket = randomBytes(32).toString('base64url');
        const holder = holderOf(principal);
        const doc: TicketDocument = {
          _id: ticketHash(ticket),
          tenantId: principal.tenantId,
          holder,
          path,
          principal,
          expiresAt: new Date(at + ttlMs),
        };
        await tickets.insertOne(doc);
        const tenantLive = { tenantId: principal.tenantId, expiresAt: { $gt: new Date(at) } };
        const holderLive = { ...tenantLive, holder };
        const [own, tenant] = await Promise.all([
          tickets.countDocuments(holderLive),
          tickets.countDocuments(tenantLive),
        ]);
        if (own <= perPrincipal && tenant <= perTenant) return { ticket, expiresAt: doc.expiresAt };
        await tickets.deleteOne({ _id: doc._id });
        const [scope, detail] =
          own > perPrincipal
            ? [holderLive, perPrincipalRefusal(perPrincipal)]
            : [tenantLive, perTenantRefusal(perTenant)];
        return refusal(detail, await oldestExpiry({ ...scope, _id: { $ne: doc._id } }, at + ttlMs), at);
      }),
    redeem: (ticket, path) =>
      use(async () => {
        const found = await tickets.findOneAndDelete({ _id: ticketHash(ticket), expiresAt: { $gt: now() } });
        // A ticket shown for another path is spent all the same, as a token sent to the wrong place would be.
        if (!found || found.path !== path) return null;
        return found.principal;
      }),
  };
}
