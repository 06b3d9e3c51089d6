/** The identity adapter's test fixtures: invitees, a recording mailer, the adapter against a stand-in. */
import {
  managementApiIdentityProvider,
  type ManagementApiOptions,
} from '../../src/gateways/identity/management-api.js';
import type { InvitationMailer, OutgoingEmail } from '../../src/gateways/identity/port.js';
import { startManagementStandIn, type ManagementStandIn, type StandInOptions } from './idp-management-standin.js';

export const invitee = (n: number) => ({
  tenantId: '00000000-0000-4000-8000-000000000001',
  userId: `00000000-0000-4000-8000-00000000000${n}`,
  email: `User${n}@Example.com`,
  name: `User ${n}`,
});

export function recordingMailer() {
  const sent: OutgoingEmail[] = [];
  const mailer: InvitationMailer = {
    send: async (email) => (sent.push(email), { messageId: `<${sent.length}@test>`, location: `${sent.length}.eml` }),
  };
  return { sent, mailer };
}

export function adapter(
  standIn: ManagementStandIn,
  mailer: InvitationMailer,
  extra: Partial<ManagementApiOptions> = {},
) {
  return managementApiIdentityProvider({
    managementUrl: standIn.url,
    clientId: standIn.clientId,
    clientSecret: standIn.clientSecret,
    mailer,
    resultUrl: 'http://platform.test',
    ...extra,
  });
}

/** A stand-in stopped when the test ends. */
export const within = async (t: { teardown: (fn: () => Promise<void>) => void }, options?: StandInOptions) => {
  const standIn = await startManagementStandIn(options);
  t.teardown(() => standIn.stop());
  return standIn;
};
