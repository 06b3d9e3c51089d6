/**
 * Email uniqueness within a tenant (case-insensitive), across user streams: before a user gets an
 * address, the address's reservation stream `userEmail-<tenant>-<sha256(lowercased email)>` records
 * who holds it. The first reservation is appended expecting "no stream", so among concurrent
 * creates exactly one wins and the others get 409.
 *
 * A reservation whose holder no longer has the address (crash between reserving and creating,
 * or between an email change and the release of the old address) is taken over, but only after a
 * grace period: a reservation is also "not yet used" for the few milliseconds between the
 * reservation and the UserCreated that follows it.
 */
import {
  handleCommand,
  loadStream,
  type CommandDeps,
  type CommandEnvelope,
} from '../src/commanding/command-handler.js';
import type { Decider } from '../src/commanding/decider.js';
import { DomainRejection } from '../src/commanding/domain-rejection.js';
import {
  emailKey,
  emailReservationStream,
  evolveEmailReservation,
  initialEmailReservationState,
  userStream,
  type EmailReservationState,
  type UserEmailEvent,
} from '../src/events/user.js';
import { userDecider } from './users.js';

export const ORPHANED_RESERVATION_AFTER_MS = 60_000;

export type EmailReservationCommand =
  /** `staleHolder`: the caller found that this holder no longer has the address. */
  { kind: 'ReserveEmail'; userId: string; staleHolder?: string } | { kind: 'ReleaseEmail'; userId: string };

export const emailReservationDecider: Decider<EmailReservationState, EmailReservationCommand, UserEmailEvent> = {
  initialState: initialEmailReservationState,
  evolve: evolveEmailReservation,
  decide: (command, state, { now }) => {
    const { userId } = command;
    if (command.kind === 'ReleaseEmail') {
      return state.holder === userId ? [{ type: 'UserEmailReleased', data: { userId } }] : [];
    }
    const reserve: UserEmailEvent = { type: 'UserEmailReserved', data: { userId, reservedAt: now.toISOString() } };
    if (state.holder === null) return [reserve];
    if (state.holder === userId) return [];
    const orphaned =
      state.holder === command.staleHolder &&
      now.getTime() - Date.parse(state.reservedAt ?? '') >= ORPHANED_RESERVATION_AFTER_MS;
    if (orphaned) return [{ type: 'UserEmailReleased', data: { userId: state.holder } }, reserve];
    // The field is named so a form can show the refusal beside the address (POST and PUT send /email).
    throw new DomainRejection('conflict', 'a user with this email address already exists in the tenant', {}, [
      { path: '/email', message: 'another user of the tenant has this address' },
    ]);
  },
};

const RESOURCE = 'email address';

/** Whether `holder` (a user id) currently has `email` as a live user of the tenant. */
async function holderHasEmail(deps: CommandDeps, tenantId: string, holder: string, email: string) {
  const { state } = await loadStream(deps.eventStore, userDecider, userStream(holder), tenantId, 'user');
  return (
    (state.status === 'active' || state.status === 'inactive') && emailKey(state.profile!.email) === emailKey(email)
  );
}

/** Reserves `email` for `userId`; throws a 409 rejection when another user of the tenant has it. */
export async function reserveEmail(
  deps: CommandDeps,
  envelope: CommandEnvelope,
  email: string,
  userId: string,
): Promise<void> {
  const stream = emailReservationStream(envelope.tenantId, email);
  const { state } = await loadStream(deps.eventStore, emailReservationDecider, stream, envelope.tenantId, RESOURCE);
  const staleHolder =
    state.holder && state.holder !== userId && !(await holderHasEmail(deps, envelope.tenantId, state.holder, email))
      ? state.holder
      : undefined;
  // One retry: a lost race re-reads the stream and is then refused as a duplicate, with that message.
  await handleCommand(deps, emailReservationDecider, {
    stream,
    resourceName: RESOURCE,
    command: { kind: 'ReserveEmail', userId, staleHolder },
    envelope,
    retriesOnConflict: 1,
  });
}

/** Frees `email` if `userId` holds it (no-op otherwise). */
export async function releaseEmail(
  deps: CommandDeps,
  envelope: CommandEnvelope,
  email: string,
  userId: string,
): Promise<void> {
  await handleCommand(deps, emailReservationDecider, {
    stream: emailReservationStream(envelope.tenantId, email),
    resourceName: RESOURCE,
    command: { kind: 'ReleaseEmail', userId },
    envelope,
  });
}
