import { z } from 'zod';
import { grantHolderEvolve } from './grant-holder.js';
import { permissionGrantsSchema } from './permission-grants.js';

/** Events of the `role-<id>` streams (custom roles; the built-in roles are not event-sourced). */
const roleFields = {
  roleId: z.uuid(),
  name: z.string(),
  description: z.string(),
  permissions: permissionGrantsSchema,
};

export const roleEvents = {
  RoleCreated: z.object(roleFields),
  RoleUpdated: z.object(roleFields),
  RoleDeleted: z.object({ roleId: z.uuid() }),
};

export type RoleEvent = {
  [K in keyof typeof roleEvents]: { type: K; data: z.infer<(typeof roleEvents)[K]> };
}[keyof typeof roleEvents];

export const roleStream = (id: string) => `role-${id}`;

export const evolveRole = grantHolderEvolve<RoleEvent>((event) =>
  event.type === 'RoleDeleted'
    ? 'deleted'
    : { name: event.data.name, description: event.data.description, permissions: event.data.permissions },
);
