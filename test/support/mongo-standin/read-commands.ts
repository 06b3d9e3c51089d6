/**
 * find / aggregate / count / listIndexes / listCollections / getMore. Every result fits in the
 * first batch, so getMore only ever sees cursors that no longer exist.
 */
import type { Document } from 'bson';
import { CommandError } from './command-error.js';
import { cursorReply, type CommandHandler } from './command-handler.js';
import { compileFilter, runAggregate, runFind } from './query-engine.js';

export const find: CommandHandler = (command, { storage, database }) => {
  const name = String(command.find);
  const documents = storage.find(database, name)?.candidates(command.filter as Document | undefined) ?? [];
  const result = runFind(documents, {
    filter: command.filter as Document | undefined,
    sort: command.sort as Document | undefined,
    skip: command.skip as number | undefined,
    limit: command.limit as number | undefined,
    projection: command.projection as Document | undefined,
  });
  return cursorReply(`${database}.${name}`, result);
};

export const aggregate: CommandHandler = (command, { storage, database }) => {
  if (typeof command.aggregate !== 'string') {
    throw new CommandError('BadValue', 'the stand-in only supports collection aggregations');
  }
  const documents = storage.find(database, command.aggregate)?.all() ?? [];
  const pipeline = (command.pipeline as Document[] | undefined) ?? [];
  return cursorReply(`${database}.${command.aggregate}`, runAggregate(documents, pipeline));
};

export const count: CommandHandler = (command, { storage, database }) => {
  const documents =
    storage.find(database, String(command.count))?.candidates(command.query as Document | undefined) ?? [];
  const matching = documents.filter(compileFilter(command.query as Document | undefined)).length;
  const skip = Number(command.skip ?? 0);
  const limit = Math.abs(Number(command.limit ?? 0));
  const n = Math.max(0, matching - skip);
  return { n: limit > 0 ? Math.min(n, limit) : n, ok: 1 };
};

export const listIndexes: CommandHandler = (command, { storage, database }) => {
  const name = String(command.listIndexes);
  const collection = storage.find(database, name);
  if (!collection) throw new CommandError('NamespaceNotFound', `ns does not exist: ${database}.${name}`);
  const indexes = collection.indexes.map((index) => ({
    v: 2,
    key: index.key,
    name: index.name,
    ...(index.unique && index.name !== '_id_' ? { unique: true } : {}),
    ...(index.expireAfterSeconds !== undefined ? { expireAfterSeconds: index.expireAfterSeconds } : {}),
  }));
  return cursorReply(`${database}.${name}`, indexes);
};

export const listCollections: CommandHandler = (command, { storage, database }) => {
  const entries = storage.names(database).map((name) => ({
    name,
    type: 'collection',
    options: {},
    info: { readOnly: false },
    idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
  }));
  const matches = compileFilter(command.filter as Document | undefined);
  const listed = entries
    .filter(matches)
    .map((entry) => (command.nameOnly ? { name: entry.name, type: entry.type } : entry));
  return cursorReply(`${database}.$cmd.listCollections`, listed);
};

export const getMore: CommandHandler = (command) => {
  throw new CommandError('CursorNotFound', `cursor id ${String(command.getMore)} not found`);
};
