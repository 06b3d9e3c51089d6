/**
 * Role and group name uniqueness within a tenant (src/events/grant-holder-names.ts): before a role
 * or group gets a name, the name's reservation stream records who holds it. The first reservation
 * is appended expecting "no stream", so among concurrent creates with the same name exactly one
 * wins and the others get 409. A rename reserves the new name before the change and releases the
 * old one after; a deletion releases the name.
 *
 * As with email addresses (commands/user-email-reservations.ts), a reservation whose holder no
 * longer has the name (a crash between reserving and creating, a release that failed) is taken
 * over, but only after a grace period that covers the moment between reservation and creation.
 */
import {
  handleCommand,
  loadStream,
  type CommandDeps,
  type CommandEnvelope,
} from '../src/commanding/command-handler.js';
import type { Decider, DomainEvent } from '../src/commanding/decider.js';
import { rejectConflict } from '../src/commanding/domain-rejection.js';
import type { GrantHolderState } from '../src/events/grant-holder.js';
import {
  evolveNameReservation,
  grantHolderNameKey,
  initialNameReservationState,
  nameEventTypes,
  nameReservationStream,
  type NameReservationEvent,
  type NameReservationState,
  type NamedKind,
} from '../src/events/grant-holder-names.js';

export const ORPHANED_NAME_RESERVATION_AFTER_MS = 60_000;

export type NameReservationCommand =
  /** `staleHolder`: the caller found that this holder no longer has the name. */
  | { kind: 'ReserveName'; holderId: string; name: string; staleHolder?: string }
  | { kind: 'ReleaseName'; holderId: string };

export function nameReservationDecider(
  kind: NamedKind,
): Decider<NameReservationState, NameReservationCommand, NameReservationEvent> {
  const types = nameEventTypes(kind);
  return {
    initialState: initialNameReservationState,
    evolve: evolveNameReservation,
    decide: (command, state, { now }) => {
      const { holderId } = command;
      if (command.kind === 'ReleaseName')
        return state.holder === holderId ? [{ type: types.released, data: { holderId } }] : [];
      const reserve: NameReservationEvent = {
        type: types.reserved,
        data: { holderId, name: command.name, reservedAt: now.toISOString() },
      };
      if (state.holder === null) return [reserve];
      if (state.holder === holderId) return [];
      const orphaned =
        state.holder === command.staleHolder &&
        now.getTime() - Date.parse(state.reservedAt ?? '') >= ORPHANED_NAME_RESERVATION_AFTER_MS;
      if (orphaned) return [{ type: types.released, data: { holderId: state.holder } }, reserve];
      throw rejectConflict(
        `a ${kind} named "${command.name}" already exists in the tenant (names are compared ignoring case and Unicode compatibility forms)`,
      );
    },
  };
}

/** The role or group streams, to see whether a reservation's holder still has the name. */
export interface NamedResource<E extends DomainEvent> {
  kind: NamedKind;
  stream: (id: string) => string;
  decider: Pick<Decider<GrantHolderState, never, E>, 'initialState' | 'evolve'>;
}

export function nameReservations<E extends DomainEvent>(resource: NamedResource<E>) {
  const decider = nameReservationDecider(resource.kind);
  const what = `${resource.kind} name`;

  const holderHasName = async (deps: CommandDeps, tenantId: string, holder: string, name: string) => {
    const { state } = await loadStream(
      deps.eventStore,
      resource.decider,
      resource.stream(holder),
      tenantId,
      resource.kind,
    );
    return state.status === 'active' && grantHolderNameKey(state.fields!.name) === grantHolderNameKey(name);
  };

  return {
    /** Reserves `name` for `holderId`; throws a 409 rejection when another role (group) of the tenant has it. */
    async reserve(deps: CommandDeps, envelope: CommandEnvelope, name: string, holderId: string): Promise<void> {
      const stream = nameReservationStream(resource.kind, envelope.tenantId, name);
      const { state } = await loadStream(deps.eventStore, decider, stream, envelope.tenantId, what);
      const staleHolder =
        state.holder && state.holder !== holderId && !(await holderHasName(deps, envelope.tenantId, state.holder, name))
          ? state.holder
          : undefined;
      // One retry: a lost race re-reads the stream and is then refused as a duplicate, with that message.
      await handleCommand(deps, decider, {
        stream,
        resourceName: what,
        command: { kind: 'ReserveName', holderId, name, staleHolder },
        envelope,
        retriesOnConflict: 1,
      });
    },
    /** Frees `name` if `holderId` holds it (no-op otherwise). */
    async release(deps: CommandDeps, envelope: CommandEnvelope, name: string, holderId: string): Promise<void> {
      await handleCommand(deps, decider, {
        stream: nameReservationStream(resource.kind, envelope.tenantId, name),
        resourceName: what,
        command: { kind: 'ReleaseName', holderId },
        envelope,
      });
    },
  };
}
