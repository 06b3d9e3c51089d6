/**
 * Invites a user through the identity-provider port and records the outcome on the user's stream
 * (UserInvited, or UserInvitationFailed with the provider's error). It runs after the user is
 * stored, so a failing provider never loses the user: the user shows invitation_status "failed"
 * and POST /users/{id}/invite runs this again.
 */
import type { Logger } from 'pino';
import { userStream } from '../src/events/user.js';
import { assertInvitable, userDecider, type InvitationOutcome } from './users.js';
import {
  handleCommand,
  loadStream,
  type CommandDeps,
  type CommandEnvelope,
} from '../src/commanding/command-handler.js';
import { isIdentityProviderError, type IdentityProvider } from '../src/gateways/identity/port.js';

export interface UserInvitationDeps extends CommandDeps {
  identity: IdentityProvider;
  logger: Logger;
}

/** The outcome, and the log position of the event recording it (for X-Read-Position). */
export type InviteUser = (
  envelope: CommandEnvelope,
  userId: string,
) => Promise<InvitationOutcome & { position: bigint | null }>;

export function userInvitations(deps: UserInvitationDeps): InviteUser {
  return async (envelope, userId) => {
    const stream = userStream(userId);
    const { state } = await loadStream(deps.eventStore, userDecider, stream, envelope.tenantId, 'user');
    assertInvitable(state);
    const invitee = { tenantId: envelope.tenantId, userId, email: state.profile!.email, name: state.profile!.name };
    let outcome: InvitationOutcome;
    try {
      const receipt = await deps.identity.invite(invitee);
      outcome = { sent: true, provider: deps.identity.name, reference: receipt.reference };
    } catch (error) {
      // Anything but the port's own error is a bug of ours: log it and record no internals.
      if (!isIdentityProviderError(error)) deps.logger.error({ err: error, userId }, 'invitation failed unexpectedly');
      const message = isIdentityProviderError(error)
        ? error.message
        : 'the invitation failed unexpectedly; see the server log';
      outcome = { sent: false, provider: deps.identity.name, error: message };
    }
    const recorded = await handleCommand(deps, userDecider, {
      stream,
      resourceName: 'user',
      command: { kind: 'RecordInvitation', userId, outcome },
      envelope,
    });
    return { ...outcome, position: recorded.position };
  };
}
