/**
 * Roles and groups have the same life: a name, a description and a permission map, created,
 * replaced and deleted; deleting one still in use (users hold the role, the group has members) is
 * refused. This is that shared decider, instantiated by commands/roles.ts and commands/groups.ts.
 */
import type { Decider, DomainEvent } from '../src/commanding/decider.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import type { PermissionGrants } from '../src/events/permission-grants.js';

export interface GrantHolderFields {
  name: string;
  description: string;
  permissions: PermissionGrants;
}

export interface GrantHolderState {
  status: 'absent' | 'active' | 'deleted';
  fields?: GrantHolderFields;
}

export type GrantHolderCommand =
  | { kind: 'Create'; id: string; fields: GrantHolderFields }
  | { kind: 'Update'; id: string; fields: GrantHolderFields }
  /** `users`: how many users still hold the role or belong to the group (from the read model). */
  | { kind: 'Delete'; id: string; users: number };

export interface GrantHolderVocabulary<E extends DomainEvent> {
  /** "role" or "group", for messages. */
  what: string;
  /** Why users block a deletion, e.g. "users hold this role". */
  inUse: (users: number) => string;
  /** Names a custom one may not take (e.g. the built-in role names); refused as a conflict. */
  reservedNames?: readonly string[];
  created: (id: string, fields: GrantHolderFields) => E;
  updated: (id: string, fields: GrantHolderFields) => E;
  deleted: (id: string) => E;
  /** Reads an event back: its fields, or 'deleted'. */
  read: (event: E) => GrantHolderFields | 'deleted';
}

const sameFields = (a: GrantHolderFields, b: GrantHolderFields) =>
  a.name === b.name && a.description === b.description &&
  Object.keys(a.permissions).length === Object.keys(b.permissions).length &&
  Object.entries(a.permissions).every(([name, grant]) => b.permissions[name] === grant);

export function grantHolderDecider<E extends DomainEvent>(words: GrantHolderVocabulary<E>): Decider<GrantHolderState, GrantHolderCommand, E> {
  const assertNameFree = (fields: GrantHolderFields) => {
    if (words.reservedNames?.includes(fields.name)) throw rejectConflict(`the name ${fields.name} belongs to a built-in ${words.what}`);
  };
  return {
    initialState: () => ({ status: 'absent' }),
    evolve: (state, event) => {
      const read = words.read(event);
      return read === 'deleted' ? { ...state, status: 'deleted' } : { status: 'active', fields: read };
    },
    decide: (command, state) => {
      if (command.kind === 'Create') {
        if (state.status !== 'absent') throw rejectConflict(`a ${words.what} with this id already exists`);
        assertNameFree(command.fields);
        return [words.created(command.id, command.fields)];
      }
      if (state.status !== 'active') throw rejectNotFound(words.what);
      if (command.kind === 'Update') {
        assertNameFree(command.fields);
        return sameFields(command.fields, state.fields!) ? [] : [words.updated(command.id, command.fields)];
      }
      if (command.users > 0) throw rejectConflict(words.inUse(command.users), { users: command.users });
      return [words.deleted(command.id)];
    },
  };
}
