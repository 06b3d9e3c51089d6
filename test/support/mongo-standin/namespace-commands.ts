/** Commands that create, index, rename or drop collections and databases. */
import type { Document } from 'bson';
import { CommandError } from './command-error.js';
import { parseNamespace, type CommandHandler } from './command-handler.js';
import { ttlOption } from './ttl-monitor.js';

interface IndexRequest {
  key: Document;
  name: string;
  unique?: boolean;
  expireAfterSeconds?: unknown;
}

export const createIndexes: CommandHandler = (command, { storage, database }) => {
  const name = String(command.createIndexes);
  const requests = command.indexes as IndexRequest[];
  // Every request is checked before any is created, as a server refuses the whole command.
  const ttl = requests.map((index) => ttlOption(index));
  const createdCollectionAutomatically = storage.find(database, name) === undefined;
  const collection = storage.findOrCreate(database, name);
  const numIndexesBefore = collection.indexes.length;
  for (const [position, index] of requests.entries()) {
    const expireAfterSeconds = ttl[position];
    collection.createIndex({
      name: index.name,
      key: index.key,
      unique: index.unique === true,
      ...(expireAfterSeconds !== undefined ? { expireAfterSeconds } : {}),
    });
  }
  const numIndexesAfter = collection.indexes.length;
  return {
    createdCollectionAutomatically,
    numIndexesBefore,
    numIndexesAfter,
    ...(numIndexesAfter === numIndexesBefore ? { note: 'all indexes already exist' } : {}),
    ok: 1,
  };
};

export const create: CommandHandler = (command, { storage, database }) => {
  const name = String(command.create);
  if (storage.find(database, name))
    throw new CommandError('NamespaceExists', `Collection ${database}.${name} already exists.`);
  storage.findOrCreate(database, name);
  return { ok: 1 };
};

/** Like servers before 7.0: dropping a missing collection fails with "ns not found" (the driver ignores it). */
export const drop: CommandHandler = (command, { storage, database }) => {
  const dropped = storage.drop(database, String(command.drop));
  if (!dropped) throw new CommandError('NamespaceNotFound', 'ns not found');
  return { nIndexesWas: dropped.indexes.length, ns: `${database}.${dropped.name}`, ok: 1 };
};

export const dropDatabase: CommandHandler = (_command, { storage, database }) => {
  storage.dropDatabase(database);
  return { dropped: database, ok: 1 };
};

export const renameCollection: CommandHandler = (command, { storage, database }) => {
  if (database !== 'admin') {
    throw new CommandError('IllegalOperation', 'renameCollection may only be run against the admin database.');
  }
  storage.rename(
    parseNamespace(String(command.renameCollection)),
    parseNamespace(String(command.to)),
    command.dropTarget === true,
  );
  return { ok: 1 };
};
