/**
 * How a target is named in outcomes, events and logs: enough to tell targets apart, nothing that
 * would let a reader use them (webhook URLs and integration keys are credentials; addresses and
 * phone numbers are personal data). Pure.
 */
import type { NotifyTarget } from './port.js';

/** g***@example.com */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

/** +44*******123: country code and the last three digits. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/[^\d]/g, '');
  if (digits.length < 6) return '***';
  return `+${digits.slice(0, 2)}${'*'.repeat(digits.length - 5)}${digits.slice(-3)}`;
}

export function describeTarget(target: NotifyTarget): string {
  switch (target.medium) {
    case 'email':
      return target.channelId ? `channel:${target.channelId}` : target.config.recipients.map(maskEmail).join(',');
    case 'sms':
      return target.userId ? `user:${target.userId} ${maskPhone(target.phone)}` : maskPhone(target.phone);
    default:
      return `channel:${target.channelId}`;
  }
}
