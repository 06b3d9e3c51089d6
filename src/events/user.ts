import { z } from 'zod';
import { createHash } from 'node:crypto';
import { permissionGrantsSchema, type PermissionGrants } from './permission-grants.js';

/**
 * Users, the model: events of the `user-<id>` streams and of the email reservation streams
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
  /** E.164, for sms pages; absent in events written before users had phones. */
  phone: z.string().nullable().optional(),
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

export const userStream = (id: string) => `user-${id}`;

export interface UserProfile {
  email: string;
  name: string;
  roleId: string | null;
  groupIds: string[];
  phone?: string | null;
}

export type InvitationStatus = 'pending' | 'sent' | 'failed';

export interface UserState {
  status: 'absent' | 'active' | 'inactive' | 'removed';
  profile?: UserProfile;
  invitationStatus?: InvitationStatus;
  /** iat of the newest token a login was recorded for. */
  lastLoginTokenIssuedAt?: number;
  overrides: PermissionGrants;
}

export const initialUserState = (): UserState => ({ status: 'absent', overrides: {} });

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserCreated': {
      const { userId: _, isActive, ...profile } = event.data;
      return { ...state, status: isActive ? 'active' : 'inactive', profile, invitationStatus: 'pending' };
    }
    case 'UserUpdated': {
      const { userId: _, ...profile } = event.data;
      return { ...state, profile };
    }
    case 'UserDeactivated':
      return { ...state, status: 'inactive' };
    case 'UserReactivated':
      return { ...state, status: 'active' };
    case 'UserRemoved':
      return { ...state, status: 'removed', profile: state.profile && { ...state.profile, groupIds: [] } };
    case 'UserInvited':
      return { ...state, invitationStatus: 'sent' };
    case 'UserInvitationFailed':
      return { ...state, invitationStatus: 'failed' };
    case 'UserLoggedIn':
      return {
        ...state,
        lastLoginTokenIssuedAt: Math.max(state.lastLoginTokenIssuedAt ?? 0, event.data.tokenIssuedAt),
      };
    case 'UserPermissionOverridesSet':
      return { ...state, overrides: event.data.permissions };
  }
}

/** Addresses are unique within a tenant regardless of case and surrounding spaces. */
export const emailKey = (email: string) => email.trim().toLowerCase();

export const emailReservationStream = (tenantId: string, email: string) =>
  `userEmail-${tenantId}-${createHash('sha256').update(emailKey(email)).digest('hex')}`;

export interface EmailReservationState {
  holder: string | null;
  reservedAt?: string;
}

export const initialEmailReservationState = (): EmailReservationState => ({ holder: null });

export const evolveEmailReservation = (_state: EmailReservationState, event: UserEmailEvent): EmailReservationState =>
  event.type === 'UserEmailReserved'
    ? { holder: event.data.userId, reservedAt: event.data.reservedAt }
    : { holder: null };
