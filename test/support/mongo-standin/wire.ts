/**
 * MongoDB wire-protocol framing for the stand-in: splits a byte stream into messages, decodes the
 * two request kinds the driver sends (OP_MSG, and OP_QUERY for the legacy first handshake) and
 * encodes the matching replies.
 */
import { deserialize, serialize, type Document } from 'bson';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_MSG = 2013;

const HEADER_BYTES = 16;
const FLAG_CHECKSUM_PRESENT = 1;
const FLAG_MORE_TO_COME = 2;

/** Int64 values arrive as bigint so that positions round-trip without losing their BSON type. */
const DESERIALIZE_OPTIONS = { useBigInt64: true, promoteValues: true } as const;

export interface Request {
  requestId: number;
  opCode: typeof OP_MSG | typeof OP_QUERY;
  /** The command, with OP_MSG document sequences folded in as array fields. */
  command: Document;
  /** Database the command targets (`$db` for OP_MSG, the namespace prefix for OP_QUERY). */
  database: string;
  /** OP_MSG moreToCome: the client expects no reply. */
  expectsNoReply: boolean;
}

/** Accumulates socket chunks and yields each complete message body as it becomes available. */
export class MessageFramer {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Buffer[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const messages: Buffer[] = [];
    while (this.pending.length >= 4) {
      const length = this.pending.readInt32LE(0);
      if (length < HEADER_BYTES) throw new Error(`invalid message length ${length}`);
      if (this.pending.length < length) break;
      messages.push(this.pending.subarray(0, length));
      this.pending = this.pending.subarray(length);
    }
    return messages;
  }
}

export function decodeRequest(message: Buffer): Request {
  const requestId = message.readInt32LE(4);
  const opCode = message.readInt32LE(12);
  if (opCode === OP_MSG) return decodeOpMsg(message, requestId);
  if (opCode === OP_QUERY) return decodeOpQuery(message, requestId);
  throw new Error(`unsupported opcode ${opCode}`);
}

function decodeOpMsg(message: Buffer, requestId: number): Request {
  const flags = message.readUInt32LE(HEADER_BYTES);
  const end = flags & FLAG_CHECKSUM_PRESENT ? message.length - 4 : message.length;
  let offset = HEADER_BYTES + 4;
  let body: Document | undefined;
  const sequences: Record<string, Document[]> = {};
  while (offset < end) {
    const kind = message[offset++];
    const size = message.readInt32LE(offset);
    if (kind === 0) {
      body = deserialize(message.subarray(offset, offset + size), DESERIALIZE_OPTIONS);
    } else if (kind === 1) {
      // Kind 1: int32 size (covering itself), cstring identifier, then back-to-back documents.
      const sectionEnd = offset + size;
      const nameEnd = message.indexOf(0, offset + 4);
      const identifier = message.toString('utf8', offset + 4, nameEnd);
      const documents: Document[] = [];
      for (let cursor = nameEnd + 1; cursor < sectionEnd; ) {
        const docSize = message.readInt32LE(cursor);
        documents.push(deserialize(message.subarray(cursor, cursor + docSize), DESERIALIZE_OPTIONS));
        cursor += docSize;
      }
      sequences[identifier] = documents;
    } else {
      throw new Error(`unsupported OP_MSG section kind ${kind}`);
    }
    offset += size;
  }
  if (!body) throw new Error('OP_MSG without a body section');
  const command = { ...body, ...sequences };
  return {
    requestId,
    opCode: OP_MSG,
    command,
    database: String(body.$db ?? 'admin'),
    expectsNoReply: (flags & FLAG_MORE_TO_COME) !== 0,
  };
}

function decodeOpQuery(message: Buffer, requestId: number): Request {
  const nameStart = HEADER_BYTES + 4;
  const nameEnd = message.indexOf(0, nameStart);
  const namespace = message.toString('utf8', nameStart, nameEnd);
  const queryStart = nameEnd + 1 + 8; // skip numberToSkip and numberToReturn
  const size = message.readInt32LE(queryStart);
  const query = deserialize(message.subarray(queryStart, queryStart + size), DESERIALIZE_OPTIONS);
  // Very old drivers wrapped the command as { $query: ... }; unwrap to be safe.
  const command = (query.$query as Document | undefined) ?? query;
  return {
    requestId,
    opCode: OP_QUERY,
    command,
    database: namespace.slice(0, namespace.indexOf('.')),
    expectsNoReply: false,
  };
}

function header(length: number, responseTo: number, opCode: number): Buffer {
  const buffer = Buffer.alloc(HEADER_BYTES);
  buffer.writeInt32LE(length, 0);
  buffer.writeInt32LE(0, 4); // the driver does not look at our request ids
  buffer.writeInt32LE(responseTo, 8);
  buffer.writeInt32LE(opCode, 12);
  return buffer;
}

/** A reply in the same protocol as the request it answers. */
export function encodeReply(request: Request, reply: Document): Buffer {
  const document = Buffer.from(serialize(reply));
  if (request.opCode === OP_MSG) {
    const flagsAndKind = Buffer.alloc(5); // flags 0, section kind 0
    const length = HEADER_BYTES + flagsAndKind.length + document.length;
    return Buffer.concat([header(length, request.requestId, OP_MSG), flagsAndKind, document]);
  }
  // OP_REPLY: responseFlags int32, cursorID int64, startingFrom int32, numberReturned int32.
  const replyFields = Buffer.alloc(20);
  replyFields.writeInt32LE(1, 16);
  const length = HEADER_BYTES + replyFields.length + document.length;
  return Buffer.concat([header(length, request.requestId, OP_REPLY), replyFields, document]);
}
