/**
 * Roles and groups have the same life (src/events/grant-holder.ts); deleting one still in use
 * (users hold the role, the group has members) is refused. This is that shared decider (the body
 * both accept is src/contract/bodies/iam.ts), instantiated by commands/roles.ts and commands/groups.ts.
 */
import type { Decider, DomainEvent } from '../src/commanding/decider.js';
import { rejectConflict, rejectNotFound } from '../src/commanding/domain-rejection.js';
import { grantHolderNameKey } from '../src/events/grant-holder-names.js';
import { initialGrantHolderState, type GrantHolderFields, type GrantHolderState } from '../src/events/grant-holder.js';
import { sameGrants } from '../src/events/permission-grants.js';

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
  /** Names a custom one may not take in any case or form (the built-in role names); refused as a conflict. */
  reservedNames?: readonly string[];
  created: (id: string, fields: GrantHolderFields) => E;
  updated: (id: string, fields: GrantHolderFields) => E;
  deleted: (id: string) => E;
  /** The resource's fold (src/events/role.ts, src/events/group.ts). */
  evolve: (state: GrantHolderState, event: E) => GrantHolderState;
}

const sameFields = (a: GrantHolderFields, b: GrantHolderFields) =>
  a.name === b.name && a.description === b.description && sameGrants(a.permissions, b.permissions);

export type GrantHolderDecider<E extends DomainEvent> = Decider<GrantHolderState, GrantHolderCommand, E> & {
  /** Throws the decider's 409 for a reserved name; routes check it before reserving the name. */
  assertNameFree: (fields: GrantHolderFields) => void;
};

export function grantHolderDecider<E extends DomainEvent>(words: GrantHolderVocabulary<E>): GrantHolderDecider<E> {
  const reservedKeys = new Set((words.reservedNames ?? []).map(grantHolderNameKey));
  const assertNameFree = (fields: GrantHolderFields) => {
    if (reservedKeys.has(grantHolderNameKey(fields.name)))
      throw rejectConflict(`the name ${fields.name} belongs to a built-in ${words.what}`);
  };
  return {
    assertNameFree,
    initialState: initialGrantHolderState,
    evolve: words.evolve,
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
