/** The alert as an email (nodemailer message options). Pure. */
import { createHash } from 'node:crypto';
import { alertTextBody } from './alert-text.js';
import type { AlertMessage } from './port.js';
import { renderSubject, subjectTemplateFor } from './subject-template.js';

export interface AlertEmail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** Derived from the idempotency key: every retry of one delivery is the same message to mail systems. */
  messageId: string;
  headers: Record<string, string>;
}

export function alertEmail(
  message: AlertMessage,
  options: { from: string; recipients: string[]; subjectTemplate?: string; idempotencyKey: string },
): AlertEmail {
  const digest = createHash('sha256').update(options.idempotencyKey).digest('hex').slice(0, 32);
  return {
    from: options.from,
    to: options.recipients,
    subject: renderSubject(subjectTemplateFor(options.subjectTemplate, message), message),
    text: alertTextBody(message),
    messageId: `<${digest}@warehouse-watch>`,
    // For mail filters and threading tools: which incident, in what state.
    headers: { 'X-Warehouse-Watch-Incident': message.incidentId, 'X-Warehouse-Watch-Status': message.status },
  };
}
