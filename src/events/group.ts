import { z } from 'zod';
import { grantHolderEvolve } from './grant-holder.js';
import { permissionGrantsSchema } from './permission-grants.js';

/** Events of the `group-<id>` streams. Membership lives on the user (UserCreated/UserUpdated groupIds). */
const groupFields = {
  groupId: z.uuid(),
  name: z.string(),
  description: z.string(),
  permissions: permissionGrantsSchema,
};

export const groupEvents = {
  GroupCreated: z.object(groupFields),
  GroupUpdated: z.object(groupFields),
  GroupDeleted: z.object({ groupId: z.uuid() }),
};

export type GroupEvent = {
  [K in keyof typeof groupEvents]: { type: K; data: z.infer<(typeof groupEvents)[K]> };
}[keyof typeof groupEvents];

export const groupStream = (id: string) => `group-${id}`;

export const evolveGroup = grantHolderEvolve<GroupEvent>((event) =>
  event.type === 'GroupDeleted'
    ? 'deleted'
    : { name: event.data.name, description: event.data.description, permissions: event.data.permissions },
);
