/**
 * Roles and groups have the same life: a name, a description and a permission map, created,
 * replaced and deleted. This is the state both fold to (src/events/role.ts, src/events/group.ts).
 */
import type { PermissionGrants } from './permission-grants.js';

export interface GrantHolderFields {
  name: string;
  description: string;
  permissions: PermissionGrants;
}

export interface GrantHolderState {
  status: 'absent' | 'active' | 'deleted';
  fields?: GrantHolderFields;
}

export const initialGrantHolderState = (): GrantHolderState => ({ status: 'absent' });

/** The fold of a role's or a group's stream, given how to read one of its events: its fields, or 'deleted'. */
export const grantHolderEvolve =
  <E>(read: (event: E) => GrantHolderFields | 'deleted') =>
  (state: GrantHolderState, event: E): GrantHolderState => {
    const fields = read(event);
    return fields === 'deleted' ? { ...state, status: 'deleted' } : { status: 'active', fields };
  };
