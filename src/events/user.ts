import { z } from 'zod';
import { permissionGrantsSchema } from './permission-grants.js';

/**
 * Events of the `user-<id>` streams and of the email reservation streams
 * `userEmail-<tenant>-<sha256(lowercased email)>` (one user per address within a tenant).
 * Group membership is part of the user (`groupIds`, as the spec's User has `group_ids`).
 */
const profile = {
  userId: z.uuid(),
  email: z.string(),
  name: z.string(),
  /** A built-in role name or a custom role's id; null: no role (tenant defaults apply). */
  roleId: z.string().nullable(),
  groupIds: z.array(z.string()),
};

export const userEvents = {
  UserCreated: z.object({ ...profile, isActive: z.boolean() }),
  /** The whole profile after the change. */
  UserUpdated: z.object(profile),
  UserDeactivated: z.object({ userId: z.uuid() }),
  UserReactivated: z.object({ userId: z.uuid() }),
  /** Removed from the tenant: out of lists, groups and on-call resolution; the stream stays. */
  UserRemoved: z.object({ userId: z.uuid() }),
  UserInvited: z.object({ userId: z.uuid(), provider: z.string(), reference: z.string() }),
  UserInvitationFailed: z.object({ userId: z.uuid(), provider: z.string(), error: z.string() }),
  /** First authenticated request with a newly issued token (`tokenIssuedAt` = its iat, seconds). */
  UserLoggedIn: z.object({ userId: z.uuid(), at: z.iso.datetime(), tokenIssuedAt: z.number().int() }),
  UserPermissionOverridesSet: z.object({ userId: z.uuid(), permissions: permissionGrantsSchema }),
};

export const userEmailEvents = {
  UserEmailReserved: z.object({ userId: z.uuid(), reservedAt: z.iso.datetime() }),
  UserEmailReleased: z.object({ userId: z.uuid() }),
};

type Data<K extends keyof typeof userEvents> = z.infer<(typeof userEvents)[K]>;

export type UserEvent = {
  [K in keyof typeof userEvents]: { type: K; data: Data<K> };
}[keyof typeof userEvents];

export type UserEmailEvent = {
  [K in keyof typeof userEmailEvents]: { type: K; data: z.infer<(typeof userEmailEvents)[K]> };
}[keyof typeof userEmailEvents];

export const USER_EVENT_TYPES = Object.keys(userEvents) as UserEvent['type'][];
