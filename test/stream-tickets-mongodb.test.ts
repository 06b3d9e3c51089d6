/**
 * Stream tickets in MongoDB (src/stream-tickets/mongodb.ts): the store contract on the
 * wire-protocol stand-in (and on a real server when MONGODB_URL is set), then what only a shared
 * store must do: keep no ticket in clear, collect expired ones by a TTL index, and let another
 * instance (another client) redeem a ticket, once.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { createMongoStreamTicketStore, STREAM_TICKETS_COLLECTION } from '../src/stream-tickets/mongodb.js';
import { ticketHash } from '../src/stream-tickets/store.js';
import { startMongoStandIn, type MongoStandIn } from './support/mongo-standin/index.js';
import { streamTicketStoreContract, ticketOf, ticketPrincipal } from './support/stream-ticket-store-contract.js';

let standIn: MongoStandIn | undefined;
const clients: MongoClient[] = [];
test.before(async () => {
  standIn = await startMongoStandIn();
});
test.after.always(async () => {
  for (const client of clients) await client.close();
  await standIn?.stop();
});

/** A fresh database on a new client: one instance of the platform. */
const databaseOn = (url: string, name = `tickets_${randomUUID().slice(0, 8)}`): Db => {
  const client = new MongoClient(url, { ignoreUndefined: true });
  clients.push(client);
  return client.db(name);
};

streamTicketStoreContract('mongodb stand-in', {
  open: async (limits) => createMongoStreamTicketStore(databaseOn(standIn!.url), limits),
});
streamTicketStoreContract('mongodb real server', {
  skipReason: process.env.MONGODB_URL ? undefined : 'MONGODB_URL is not set',
  open: async (limits) => createMongoStreamTicketStore(databaseOn(process.env.MONGODB_URL!), limits),
});

const FEED = '/api/v1/incidents/stream';
const now = () => new Date();

test('only the SHA-256 of a ticket is stored, and a TTL index (expireAfterSeconds 0) is declared on the expiry', async (t) => {
  const db = databaseOn(standIn!.url);
  const store = createMongoStreamTicketStore(db, { now });
  const ticket = ticketOf(await store.issue(ticketPrincipal(), FEED));
  const stored = await db.collection(STREAM_TICKETS_COLLECTION).find().toArray();
  t.is(stored.length, 1);
  t.is(stored[0]!._id as unknown, ticketHash(ticket));
  t.false(JSON.stringify(stored).includes(ticket), 'the ticket itself is nowhere in the document');
  const indexes = await db.collection(STREAM_TICKETS_COLLECTION).listIndexes().toArray();
  t.like(
    indexes.find((index) => index.expireAfterSeconds !== undefined),
    { key: { expiresAt: 1 }, expireAfterSeconds: 0 },
  );
});

test('a ticket issued through one instance is redeemed through another, once, however many race for it', async (t) => {
  const name = `tickets_${randomUUID().slice(0, 8)}`;
  const instances = [0, 1, 2].map(() => createMongoStreamTicketStore(databaseOn(standIn!.url, name), { now }));
  const alice = ticketPrincipal();
  const ticket = ticketOf(await instances[0]!.issue(alice, FEED));
  const answers = await Promise.all(instances.map((instance) => instance.redeem(ticket, FEED)));
  t.deepEqual(
    answers.filter((answer) => answer !== null),
    [alice],
  );
});

test('the live-ticket limit holds across instances: issuing at once never hands out more than the cap', async (t) => {
  const name = `tickets_${randomUUID().slice(0, 8)}`;
  const instances = [0, 1, 2].map(() =>
    createMongoStreamTicketStore(databaseOn(standIn!.url, name), { now, perPrincipal: 5 }),
  );
  const bob = ticketPrincipal();
  const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => instances[i % 3]!.issue(bob, FEED)));
  const granted = answers.filter((answer) => 'ticket' in answer).length;
  t.true(granted >= 1 && granted <= 5, `granted ${granted}`);
  t.true(
    (await databaseOn(standIn!.url, name).collection(STREAM_TICKETS_COLLECTION).countDocuments()) <= 5,
    'refused asks leave no ticket behind',
  );
});
