/**
 * Runs a command against one stream: load → fold evolve → decide → append with the revision that
 * was read → wait until the projections have seen the new events (read your writes).
 */
import {
  isWrongExpectedRevision,
  type EventStore,
  type EventToAppend,
  type RecordedEvent,
} from '../eventstore/port.js';
import { readEventData } from '../events/catalogue.js';
import { jitteredBackoff, type ConflictBackoff } from './conflict-backoff.js';
import { fold, type Decider, type DomainEvent } from './decider.js';
import { rejectConflict, rejectNotFound } from './domain-rejection.js';
import { StreamBusyError } from './stream-busy.js';

/** Who issued a command and why; becomes the metadata of every event it produces. */
export interface CommandEnvelope {
  tenantId: string;
  actor: string;
  correlationId: string;
  causationId: string;
}

export interface CommandDeps {
  eventStore: EventStore;
  /** Resolves true once every projection has applied the given position (false on timeout). */
  waitForProjections: (position: bigint) => Promise<boolean>;
  now: () => Date;
  /** The wait before a conflicting append is retried (default: jitteredBackoff with real time and Math.random). */
  conflictBackoff?: ConflictBackoff;
  /** The default of CommandRequest.conflictBudgetMs (COMMAND_CONFLICT_BUDGET_MS; else CONFLICT_BUDGET_MS). */
  conflictBudgetMs?: number;
  /** A monotonic clock in ms for the conflict budget (default: performance.now; injectable for tests). */
  monotonicMs?: () => number;
}

export interface CommandRequest<Command> {
  stream: string;
  /** Used in the 404 message when the stream belongs to another tenant. */
  resourceName: string;
  command: Command;
  envelope: CommandEnvelope;
  /** A client's If-Match: the command applies only at exactly this revision. */
  expectedRevision?: bigint;
  /**
   * At most this many retries of a conflicting append, then a 409: for a caller to whom a lost race
   * means something (a sync run another instance started: 0; a reservation that is then refused as
   * a duplicate: 1). Default: no count, the time budget below. With an If-Match there is never a
   * retry: the client asked for exactly that revision, so a change in between is a 409.
   */
  retriesOnConflict?: number;
  /**
   * Without an If-Match, how long a conflicting append is re-read, re-decided (the decider re-checks
   * its rules against the fresh state, so an acknowledge that races an escalation stage just lands)
   * and retried after a jittered wait, before giving up with a StreamBusyError (503 + Retry-After,
   * never a 409: the client did nothing wrong). Each conflict means another writer landed, so the
   * command lands once the stream is quiet for one round trip; a count could not promise that (1 in
   * 403 concurrent notes on one incident lost ten races in a row to the others and the escalation's
   * appends; issue 39 §8). Default CONFLICT_BUDGET_MS.
   */
  conflictBudgetMs?: number;
  /**
   * The stream is known to be new (its id was just generated): skip reading it and append with
   * "no stream" expected, so a stream that exists after all is still a conflict, never overwritten.
   */
  newStream?: boolean;
  /**
   * The stream as the caller already read it (to check things before deciding): used for the
   * first attempt instead of reading again; a conflicting append still re-reads.
   */
  loaded?: LoadedStream<unknown, unknown>;
}

export interface CommandOutcome<State, Event> {
  events: Event[];
  state: State;
  /** The stream's revision after the command (null: the stream still does not exist). */
  revision: bigint | null;
  /** Whether the projections had caught up when the outcome was returned. */
  projected: boolean;
  /** Global position of the last appended event (null when nothing was appended). */
  position: bigint | null;
  /** When the command was decided: its events' `occurredAt`. */
  decidedAt: Date;
}

export interface LoadedStream<State, Event> {
  state: State;
  revision: bigint | null;
  events: RecordedEvent[];
  domainEvents: Event[];
}

export const toDomainEvent = <Event extends DomainEvent>(event: RecordedEvent): Event =>
  ({ type: event.type, data: readEventData(event.type, event.data) }) as Event;

/** Loads and folds a stream, treating another tenant's stream as missing. */
export async function loadStream<State, Event extends DomainEvent>(
  eventStore: EventStore,
  decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>,
  stream: string,
  tenantId: string,
  resourceName: string,
): Promise<LoadedStream<State, Event>> {
  const events = await eventStore.readStream(stream);
  if (events.length > 0 && events[0]!.metadata.tenantId !== tenantId) throw rejectNotFound(resourceName);
  const domainEvents = events.map((e) => toDomainEvent<Event>(e));
  return {
    state: fold(decider, domainEvents),
    revision: events.length > 0 ? events.at(-1)!.revision : null,
    events,
    domainEvents,
  };
}

/** How long a command without If-Match keeps retrying appends that other writers beat (see conflictBudgetMs). */
export const CONFLICT_BUDGET_MS = 10_000;
/** The Retry-After of a command that spent its conflict budget. */
const STREAM_BUSY_RETRY_AFTER_SECONDS = 1;
const defaultConflictBackoff = jitteredBackoff();
const defaultMonotonicMs = () => performance.now();

/**
 * Every field named, not `{ ...envelope, occurredAt }`: on Node 20, once V8 has optimised it, an
 * object literal that starts with a spread and then adds a key builds a new hidden class for every
 * object it makes (about 1.5 µs each, and every later read of the object is a slow lookup;
 * bench/README.md, "Spread, then a new key"). The Record type makes a new envelope field a compile error here.
 */
const eventMetadata = (
  envelope: CommandEnvelope,
  occurredAt: string,
): Record<keyof CommandEnvelope | 'occurredAt', string> => ({
  tenantId: envelope.tenantId,
  actor: envelope.actor,
  correlationId: envelope.correlationId,
  causationId: envelope.causationId,
  occurredAt,
});

export async function handleCommand<State, Command, Event extends DomainEvent>(
  deps: CommandDeps,
  decider: Decider<State, Command, Event>,
  request: CommandRequest<Command>,
): Promise<CommandOutcome<State, Event>> {
  const { envelope } = request;
  const monotonicMs = deps.monotonicMs ?? defaultMonotonicMs;
  const startedMs = monotonicMs();
  for (let attempt = 0; ; attempt++) {
    const loaded: LoadedStream<State, Event> =
      attempt === 0 && request.loaded
        ? (request.loaded as LoadedStream<State, Event>)
        : request.newStream && attempt === 0
          ? { state: decider.initialState(), revision: null, events: [], domainEvents: [] }
          : await loadStream(deps.eventStore, decider, request.stream, envelope.tenantId, request.resourceName);
    if (request.expectedRevision !== undefined && request.expectedRevision !== loaded.revision) {
      throw rejectConflict(
        `${request.resourceName} was changed by someone else (revision ${String(loaded.revision)}, not ${request.expectedRevision})`,
        {
          current_revision: loaded.revision === null ? null : String(loaded.revision),
        },
      );
    }
    const now = deps.now();
    const newEvents = decider.decide(request.command, loaded.state, {
      now,
      actor: envelope.actor,
      tenantId: envelope.tenantId,
    });
    if (newEvents.length === 0) {
      return {
        events: [],
        state: loaded.state,
        revision: loaded.revision,
        projected: true,
        position: null,
        decidedAt: now,
      };
    }
    const occurredAt = now.toISOString();
    const toAppend: EventToAppend[] = newEvents.map((event) => ({
      type: event.type,
      // Validated against the catalogue by the platform's event store (validatingEventStore).
      data: event.data as Record<string, unknown>,
      metadata: eventMetadata(envelope, occurredAt),
    }));
    try {
      const result = await deps.eventStore.append(request.stream, toAppend, {
        expectedRevision: loaded.revision ?? 'no_stream',
      });
      const projected = await deps.waitForProjections(result.position);
      return {
        events: newEvents,
        state: newEvents.reduce(decider.evolve, loaded.state),
        revision: result.nextRevision,
        projected,
        position: result.position,
        decidedAt: now,
      };
    } catch (error) {
      if (!isWrongExpectedRevision(error)) throw error;
      const countSpent =
        request.expectedRevision !== undefined ||
        (request.retriesOnConflict !== undefined && attempt >= request.retriesOnConflict);
      if (countSpent) throw rejectConflict(`${request.resourceName} was changed concurrently; retry the request`);
      if (monotonicMs() - startedMs >= (request.conflictBudgetMs ?? deps.conflictBudgetMs ?? CONFLICT_BUDGET_MS)) {
        throw new StreamBusyError(request.resourceName, STREAM_BUSY_RETRY_AFTER_SECONDS);
      }
      await (deps.conflictBackoff ?? defaultConflictBackoff)(attempt);
    }
  }
}
