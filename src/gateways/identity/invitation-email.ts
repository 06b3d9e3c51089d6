import type { Invitee, OutgoingEmail } from './port.js';

/**
 * The invitation as an email. With an external provider the link is its password-change ticket
 * (the invitee sets a password, then signs in); with the embedded provider it is the platform's
 * address and the administrator hands out credentials.
 */
export function invitationEmail(
  invitee: Invitee,
  link: { url: string; kind: 'set-password' | 'sign-in' },
): OutgoingEmail {
  const action =
    link.kind === 'set-password'
      ? `Choose your password here (the link expires in 7 days):\n\n  ${link.url}`
      : `Sign in here with the credentials your administrator gives you:\n\n  ${link.url}`;
  return {
    to: { name: invitee.name, address: invitee.email },
    subject: 'You have been invited to warehouse-watch',
    text: [
      `Hello ${invitee.name},`,
      '',
      'you have been added to a warehouse-watch tenant.',
      action,
      '',
      '-- warehouse-watch',
    ].join('\n'),
  };
}
