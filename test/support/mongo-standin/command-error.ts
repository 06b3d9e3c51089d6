/**
 * A command failure the stand-in reports as `{ ok: 0, errmsg, code, codeName }`, with the codes a
 * real server uses so that the driver classifies them the same way (e.g. 26 = "ns not found").
 */
import type { Document } from 'bson';

export const ErrorCodes = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  NamespaceNotFound: 26,
  CursorNotFound: 43,
  NamespaceExists: 48,
  CommandNotFound: 59,
  IllegalOperation: 20,
  CannotCreateIndex: 67,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  InvalidIndexSpecificationOption: 197,
  DuplicateKey: 11000,
} as const;

type CodeName = keyof typeof ErrorCodes;

export class CommandError extends Error {
  constructor(
    readonly codeName: CodeName,
    message: string,
    readonly extra: Document = {},
  ) {
    super(message);
  }

  get code(): number {
    return ErrorCodes[this.codeName];
  }

  toReply(): Document {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }
}
