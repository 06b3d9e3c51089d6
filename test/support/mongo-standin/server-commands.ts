/** Handshake and housekeeping commands: hello/isMaster, ping, buildInfo, endSessions, killCursors. */
import type { CommandHandler } from './command-handler.js';

/**
 * Wire version 21 is MongoDB 7.0, inside the range driver 7.x accepts (MIN_SUPPORTED_WIRE_VERSION
 * is 9). No setName/hosts makes it a standalone; no topologyVersion keeps the driver's monitor on
 * plain polling instead of the streaming (exhaust) protocol.
 */
const MAX_WIRE_VERSION = 21;

export const hello: CommandHandler = (_command, { connectionId }) => ({
  helloOk: true,
  ismaster: true,
  isWritablePrimary: true,
  maxBsonObjectSize: 16 * 1024 * 1024,
  maxMessageSizeBytes: 48_000_000,
  maxWriteBatchSize: 100_000,
  localTime: new Date(),
  // Advertising sessions matches a real server; the driver then sends lsid and endSessions.
  logicalSessionTimeoutMinutes: 30,
  connectionId,
  minWireVersion: 0,
  maxWireVersion: MAX_WIRE_VERSION,
  readOnly: false,
  ok: 1,
});

export const ping: CommandHandler = () => ({ ok: 1 });

export const buildInfo: CommandHandler = () => ({
  version: '7.0.0',
  versionArray: [7, 0, 0, 0],
  maxBsonObjectSize: 16 * 1024 * 1024,
  ok: 1,
});

export const endSessions: CommandHandler = () => ({ ok: 1 });

export const killCursors: CommandHandler = (command) => ({
  cursorsKilled: [],
  cursorsNotFound: command.cursors ?? [],
  cursorsAlive: [],
  cursorsUnknown: [],
  ok: 1,
});
