/**
 * The identity-provider port: creating a user of the platform invites them. Adapters:
 * management-api.ts (an OAuth/OIDC provider's management API, Auth0-style) and outbox-mailer.ts
 * (embedded: the invitation is an email file in DATA_DIR/outbox).
 */

export interface Invitee {
  tenantId: string;
  userId: string;
  email: string;
  name: string;
}

export interface InvitationReceipt {
  /** What the provider calls the invitation or the user (for the event log and support). */
  reference: string;
}

export interface IdentityProvider {
  /** Recorded with the outcome, e.g. "management-api" or "outbox". */
  readonly name: string;
  /** Throws an IdentityProviderError with the provider's answer when it refuses or fails. */
  invite(invitee: Invitee): Promise<InvitationReceipt>;
}

export interface OutgoingEmail {
  to: { name: string; address: string };
  subject: string;
  text: string;
}

/** Delivers the invitation email. */
export interface InvitationMailer {
  send(email: OutgoingEmail): Promise<{ messageId: string; location: string }>;
}

/** The provider (or the mailer) refused or failed; `message` is safe to record and to show. */
export class IdentityProviderError extends Error {
  override readonly name = 'IdentityProviderError';
  constructor(
    message: string,
    /** Which step failed: token, create_user, find_user, ticket, send. */
    readonly step: string,
    /** The provider's HTTP status, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export const isIdentityProviderError = (error: unknown): error is IdentityProviderError =>
  error instanceof IdentityProviderError;
