/** Routes a decoded command to its handler and turns failures into `ok: 0` replies. */
import type { Document } from 'bson';
import { CommandError } from './command-error.js';
import type { CommandContext, CommandHandler } from './command-handler.js';
import { findAndModify } from './find-and-modify.js';
import { create, createIndexes, drop, dropDatabase, renameCollection } from './namespace-commands.js';
import { aggregate, count, find, getMore, listCollections, listIndexes } from './read-commands.js';
import { buildInfo, endSessions, hello, killCursors, ping } from './server-commands.js';
import { insert, remove, update } from './write-commands.js';

const handlers: Record<string, CommandHandler> = {
  hello,
  isMaster: hello,
  ismaster: hello,
  ping,
  buildInfo,
  buildinfo: buildInfo,
  endSessions,
  killCursors,
  find,
  getMore,
  aggregate,
  count,
  listIndexes,
  listCollections,
  insert,
  update,
  delete: remove,
  findAndModify,
  findandmodify: findAndModify,
  createIndexes,
  create,
  drop,
  dropDatabase,
  renameCollection,
};

/** The command name is the first field of the command document. */
export function runCommand(command: Document, context: CommandContext): Document {
  const name = Object.keys(command)[0] ?? '';
  const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
  try {
    if (!handler) throw new CommandError('CommandNotFound', `no such command: '${name}'`);
    return handler(command, context);
  } catch (error) {
    if (error instanceof CommandError) return error.toReply();
    const message = error instanceof Error ? error.message : String(error);
    return new CommandError('InternalError', `stand-in failed on ${name}: ${message}`).toReply();
  }
}
