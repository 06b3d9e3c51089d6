/**
 * insert / update / delete. Per-statement failures (duplicate keys) become `writeErrors` in an
 * `ok: 1` reply, as a server reports them; ordered writes stop at the first failure.
 */
import { ObjectId, serialize, type Document } from 'bson';
import { update as applyUpdateOperators } from 'mingo';
import { CommandError } from './command-error.js';
import type { CommandHandler } from './command-handler.js';
import { runFind } from './query-engine.js';
import { cloneDocument, type StoredCollection } from './storage.js';

interface WriteOutcome {
  writeErrors: Document[];
}

function runStatements<S>(
  statements: S[],
  ordered: boolean,
  apply: (statement: S, index: number) => void,
): WriteOutcome {
  const writeErrors: Document[] = [];
  for (const [index, statement] of statements.entries()) {
    try {
      apply(statement, index);
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      writeErrors.push({ index, code: error.code, errmsg: error.message, ...error.extra });
      if (ordered) break;
    }
  }
  return { writeErrors };
}

function withWriteErrors(reply: Document, outcome: WriteOutcome): Document {
  return outcome.writeErrors.length > 0 ? { ...reply, writeErrors: outcome.writeErrors, ok: 1 } : { ...reply, ok: 1 };
}

export const insert: CommandHandler = (command, { storage, database }) => {
  const collection = storage.findOrCreate(database, String(command.insert));
  let n = 0;
  const outcome = runStatements(command.documents as Document[], command.ordered !== false, (doc) => {
    collection.insert(doc._id === undefined ? { _id: new ObjectId(), ...doc } : doc);
    n++;
  });
  return withWriteErrors({ n }, outcome);
};

export interface UpdateStatement {
  q: Document;
  u: Document | Document[];
  upsert?: boolean;
  multi?: boolean;
}

const isOperatorUpdate = (u: Document) => Object.keys(u).some((key) => key.startsWith('$'));

/** The equality conditions of a filter, which seed a document created by an upsert. */
function equalityFields(filter: Document): Document {
  const seed: Document = {};
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$') || field.includes('.')) continue;
    const isOperatorCondition =
      condition !== null && typeof condition === 'object' && Object.keys(condition).some((key) => key.startsWith('$'));
    if (!isOperatorCondition) seed[field] = condition;
  }
  return seed;
}

export function updatedDocument(current: Document, u: Document, isInsert: boolean): Document {
  if (!isOperatorUpdate(u)) return u;
  const next = cloneDocument(current);
  // mingo has no $setOnInsert: on an insert it is one more $set, otherwise it does nothing.
  const { $setOnInsert, ...operators } = u;
  if (isInsert && $setOnInsert)
    operators.$set = { ...(operators.$set as Document | undefined), ...($setOnInsert as Document) };
  if (Object.keys(operators).length > 0) applyUpdateOperators(next, operators);
  return next;
}

export function upsertDocument(collection: StoredCollection, statement: UpdateStatement & { u: Document }): unknown {
  const seed = equalityFields(statement.q);
  const doc = isOperatorUpdate(statement.u) ? updatedDocument(seed, statement.u, true) : { ...statement.u };
  const _id = doc._id ?? seed._id ?? new ObjectId();
  collection.insert({ _id, ...doc });
  return _id;
}

export const update: CommandHandler = (command, { storage, database }) => {
  const collection = storage.findOrCreate(database, String(command.update));
  let n = 0;
  let nModified = 0;
  const upserted: Document[] = [];
  const outcome = runStatements(command.updates as UpdateStatement[], command.ordered !== false, (statement, index) => {
    const u = statement.u;
    if (Array.isArray(u)) throw new CommandError('BadValue', 'the stand-in does not support pipeline updates');
    const matches = runFind(collection.candidates(statement.q), {
      filter: statement.q,
      limit: statement.multi ? 0 : 1,
    });
    if (matches.length === 0 && statement.upsert) {
      upserted.push({ index, _id: upsertDocument(collection, { ...statement, u }) });
      n++;
      return;
    }
    for (const current of matches) {
      const next = updatedDocument(current, u, false);
      const stored = collection.replace(current, next);
      n++;
      if (!Buffer.from(serialize(current)).equals(serialize(stored))) nModified++;
    }
  });
  return withWriteErrors({ n, nModified, ...(upserted.length > 0 ? { upserted } : {}) }, outcome);
};

interface DeleteStatement {
  q: Document;
  limit: number;
}

export const remove: CommandHandler = (command, { storage, database }) => {
  const collection = storage.find(database, String(command.delete));
  let n = 0;
  const outcome = runStatements(command.deletes as DeleteStatement[], command.ordered !== false, (statement) => {
    if (!collection) return;
    const matches = runFind(collection.candidates(statement.q), {
      filter: statement.q,
      limit: Number(statement.limit) === 1 ? 1 : 0,
    });
    for (const doc of matches) collection.remove(doc);
    n += matches.length;
  });
  return withWriteErrors({ n }, outcome);
};
