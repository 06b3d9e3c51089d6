/**
 * Why a decider refused a command. Typed so the HTTP layer maps it without string matching:
 * not_found → 404, conflict → 409, invalid → 400.
 */
export type RejectionKind = 'not_found' | 'conflict' | 'invalid';

export interface FieldError {
  path: string;
  message: string;
}

export class DomainRejection extends Error {
  override readonly name = 'DomainRejection';
  constructor(
    readonly kind: RejectionKind,
    message: string,
    /** Extra members for the problem body, e.g. { current_status: 'resolved' }. */
    readonly details: Record<string, unknown> = {},
    /** The fields at fault, as JSON pointers into the request body (the problem's `errors`). */
    readonly errors?: FieldError[],
  ) {
    super(message);
  }
}

export const rejectNotFound = (what: string) => new DomainRejection('not_found', `${what} not found`);
export const rejectConflict = (message: string, details?: Record<string, unknown>) =>
  new DomainRejection('conflict', message, details);

export const rejectInvalid = (message: string, errors?: FieldError[]) =>
  new DomainRejection('invalid', message, {}, errors);

export const isDomainRejection = (error: unknown): error is DomainRejection => error instanceof DomainRejection;
