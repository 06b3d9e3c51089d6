/** Maps driver errors onto the port's errors. */
import { MongoNetworkError, MongoServerError, MongoServerSelectionError, MongoTopologyClosedError } from 'mongodb';
import { DuplicateKeyError, ReadStoreUnavailableError } from './port.js';

const DUPLICATE_KEY = 11000;
const NAMESPACE_NOT_FOUND = 26;

export function isDuplicateKeyError(error: unknown): error is MongoServerError {
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY;
}

export function isNamespaceNotFoundError(error: unknown): boolean {
  return (
    error instanceof MongoServerError && (error.code === NAMESPACE_NOT_FOUND || /ns not found/.test(error.message))
  );
}

/** Servers name the index only in the message: "E11000 duplicate key error collection: db.c index: name dup key: {...}". */
function duplicateIndexName(error: MongoServerError): string {
  const named = /index: (\S+) dup key/.exec(error.errmsg ?? error.message);
  if (named?.[1]) return named[1];
  const keyPattern = error.keyPattern as Record<string, unknown> | undefined;
  return keyPattern ? Object.keys(keyPattern).join('_') : 'unknown';
}

/** The port's error for a driver error, or the error itself when the port has nothing better. */
export function translateMongoError(error: unknown, collection: string): unknown {
  if (isDuplicateKeyError(error)) return new DuplicateKeyError(collection, duplicateIndexName(error));
  if (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoTopologyClosedError
  ) {
    return new ReadStoreUnavailableError(`read store unreachable: ${error.message}`, { cause: error });
  }
  return error;
}
