/** Builders for the stand-in's gRPC messages, and readers for the client's. */
import { randomUUID } from 'node:crypto';
import { sharedPb, streamsPb, type ReadResp } from './protocol.js';
import type { AppendOutcome, ExpectedState, ProposedEvent, StoredEvent } from './storage.js';

const { ReadResp: ReadRespMessage, AppendResp } = streamsPb;

/** .NET ticks (100 ns) since the Unix epoch: the unit of a real server's `created` metadata entry. */
const TICKS_PER_MS = 10_000n;

export const streamNameOf = (identifier: { getStreamName_asU8(): Uint8Array } | undefined): string =>
  Buffer.from(identifier?.getStreamName_asU8() ?? new Uint8Array()).toString('utf8');

const streamIdentifier = (name: string) => new sharedPb.StreamIdentifier().setStreamName(Buffer.from(name, 'utf8'));

/** A proposed event's id; the client sends UUIDs in their string form, older ones as two 64-bit halves. */
function uuidOf(uuid: InstanceType<typeof sharedPb.UUID> | undefined): string {
  if (!uuid) return randomUUID();
  if (uuid.hasString()) return uuid.getString();
  const structured = uuid.getStructured()!;
  const hex =
    BigInt.asUintN(64, BigInt(structured.getMostSignificantBits())).toString(16).padStart(16, '0') +
    BigInt.asUintN(64, BigInt(structured.getLeastSignificantBits())).toString(16).padStart(16, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function proposedEventOf(message: InstanceType<typeof streamsPb.AppendReq.ProposedMessage>): ProposedEvent {
  const metadata = message.getMetadataMap();
  return {
    id: uuidOf(message.getId()),
    type: metadata.get('type') ?? '',
    contentType: metadata.get('content-type') ?? 'application/octet-stream',
    data: message.getData_asU8(),
    customMetadata: message.getCustomMetadata_asU8(),
  };
}

export function appendResponse(outcome: AppendOutcome, expected: ExpectedState): InstanceType<typeof AppendResp> {
  const response = new AppendResp();
  if (outcome.ok) {
    const success = new AppendResp.Success();
    if (outcome.currentRevision === 'no_stream') success.setNoStream(new sharedPb.Empty());
    else success.setCurrentRevision(outcome.currentRevision.toString());
    if (outcome.position === undefined) success.setNoPosition(new sharedPb.Empty());
    else
      success.setPosition(
        new AppendResp.Position()
          .setCommitPosition(outcome.position.toString())
          .setPreparePosition(outcome.position.toString()),
      );
    return response.setSuccess(success);
  }
  // The client reads the current fields only, not their deprecated *_20_6_0 twins.
  const wrong = new AppendResp.WrongExpectedVersion();
  if (outcome.currentRevision === 'no_stream') wrong.setCurrentNoStream(new sharedPb.Empty());
  else wrong.setCurrentRevision(outcome.currentRevision.toString());
  if (expected === 'any') wrong.setExpectedAny(new sharedPb.Empty());
  else if (expected === 'no_stream') wrong.setExpectedNoStream(new sharedPb.Empty());
  else if (expected === 'stream_exists') wrong.setExpectedStreamExists(new sharedPb.Empty());
  else wrong.setExpectedRevision(expected.toString());
  return response.setWrongExpectedVersion(wrong);
}

export function eventResponse(event: StoredEvent): ReadResp {
  const position = event.position.toString();
  const recorded = new ReadRespMessage.ReadEvent.RecordedEvent()
    .setId(new sharedPb.UUID().setString(event.id))
    .setStreamIdentifier(streamIdentifier(event.stream))
    .setStreamRevision(event.revision.toString())
    // Servers since 22.6 fill the $all position in stream reads too, for non-transactional writes.
    .setCommitPosition(position)
    .setPreparePosition(position)
    .setCustomMetadata(event.customMetadata)
    .setData(event.data);
  recorded
    .getMetadataMap()
    .set('type', event.type)
    .set('content-type', event.contentType)
    .set('created', (BigInt(event.createdMs) * TICKS_PER_MS).toString());
  const readEvent = new ReadRespMessage.ReadEvent().setEvent(recorded).setCommitPosition(position);
  return new ReadRespMessage().setEvent(readEvent);
}

export const streamNotFoundResponse = (stream: string): ReadResp =>
  new ReadRespMessage().setStreamNotFound(
    new ReadRespMessage.StreamNotFound().setStreamIdentifier(streamIdentifier(stream)),
  );

export const confirmationResponse = (subscriptionId: string): ReadResp =>
  new ReadRespMessage().setConfirmation(
    new ReadRespMessage.SubscriptionConfirmation().setSubscriptionId(subscriptionId),
  );

export const checkpointResponse = (position: bigint): ReadResp =>
  new ReadRespMessage().setCheckpoint(
    new ReadRespMessage.Checkpoint().setCommitPosition(position.toString()).setPreparePosition(position.toString()),
  );

export const caughtUpResponse = (): ReadResp => new ReadRespMessage().setCaughtUp(new ReadRespMessage.CaughtUp());
