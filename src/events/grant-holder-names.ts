/**
 * Role and group names, the model: unique per tenant among roles (and among groups), because a
 * token's `roles` claim resolves privileges by name. Uniqueness across streams is a reservation
 * stream per normalised name, `roleName-<tenant>-<sha256(key)>` / `groupName-<tenant>-<sha256(key)>`,
 * appended with "no stream" expected (like the user email reservation in src/events/user.ts).
 *
 * Two names are the same when their keys are (src/contract/grant-holder-name-key.ts: the body a
 * client sends is checked with the same key).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { grantHolderNameKey } from '../contract/grant-holder-name-key.js';

export { grantHolderNameKey, looksLikeUuid } from '../contract/grant-holder-name-key.js';

export type NamedKind = 'role' | 'group';

export const nameReservationStream = (kind: NamedKind, tenantId: string, name: string) =>
  `${kind}Name-${tenantId}-${createHash('sha256').update(grantHolderNameKey(name)).digest('hex')}`;

const reserved = z.object({ holderId: z.uuid(), name: z.string(), reservedAt: z.iso.datetime() });
const released = z.object({ holderId: z.uuid() });

export const grantHolderNameEvents = {
  RoleNameReserved: reserved,
  RoleNameReleased: released,
  GroupNameReserved: reserved,
  GroupNameReleased: released,
};

export type NameReservationEvent =
  | { type: 'RoleNameReserved' | 'GroupNameReserved'; data: z.infer<typeof reserved> }
  | { type: 'RoleNameReleased' | 'GroupNameReleased'; data: z.infer<typeof released> };

export const nameEventTypes = (kind: NamedKind) =>
  kind === 'role'
    ? ({ reserved: 'RoleNameReserved', released: 'RoleNameReleased' } as const)
    : ({ reserved: 'GroupNameReserved', released: 'GroupNameReleased' } as const);

export interface NameReservationState {
  /** The role or group that holds the name (null: free). */
  holder: string | null;
  reservedAt?: string;
}

export const initialNameReservationState = (): NameReservationState => ({ holder: null });

export const evolveNameReservation = (
  _state: NameReservationState,
  event: NameReservationEvent,
): NameReservationState =>
  event.type.endsWith('Reserved')
    ? { holder: event.data.holderId, reservedAt: (event.data as z.infer<typeof reserved>).reservedAt }
    : { holder: null };
