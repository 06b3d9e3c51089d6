/**
 * The tenant's users, roles and groups for the People pages, and how to say an id as a name: the
 * pages show names only, and an API refusal that names a role or group by id (e.g. the assignment
 * guard's "assigning <id> would grant …") is reworded with the names the page knows.
 */
import { useCallback } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { GroupDetail, Role, User } from '../api/types';
import { withNames } from '../people-words';
import { useSession } from './session-context';
import { useLoad } from './use-load';

export interface Directory {
  users: User[];
  roles: Role[];
  groups: GroupDetail[];
  loading: boolean;
  error: string | undefined;
  reload: () => void;
  userName: (id: string) => string;
  roleName: (id: string | null) => string;
  groupName: (id: string) => string;
  /** Runs an API call; its refusal comes back with every known id replaced by its name. */
  named: <T>(call: Promise<T>) => Promise<T>;
}

export function usePeopleDirectory(): Directory {
  const { calls } = useSession();
  const users = useLoad(() => calls.users(), []);
  const roles = useLoad(() => calls.roles(), []);
  const groups = useLoad(() => calls.groupDetails(), []);
  const names = new Map<string, string>([
    ...(users.value ?? []).map((user) => [user.id, user.name] as const),
    ...(roles.value ?? []).map((role) => [role.id, role.name] as const),
    ...(groups.value ?? []).map((group) => [group.id, group.name] as const),
  ]);
  const reload = useCallback(
    () => (users.reload(), roles.reload(), groups.reload()),
    [users.reload, roles.reload, groups.reload],
  );
  return {
    users: users.value ?? [],
    roles: roles.value ?? [],
    groups: groups.value ?? [],
    loading: users.loading || roles.loading || groups.loading,
    error: users.error ?? roles.error ?? groups.error,
    reload,
    userName: (id) => names.get(id) ?? 'a removed user',
    roleName: (id) => (id === null ? 'no role' : (names.get(id) ?? 'an unknown role')),
    groupName: (id) => names.get(id) ?? 'an unknown group',
    named: async (call) => {
      try {
        return await call;
      } catch (failure) {
        if (failure instanceof ApiError) {
          throw new ApiError(
            failure.status,
            withNames(failure.message, names),
            failure.errors.map((error) => ({ ...error, message: withNames(error.message, names) })),
          );
        }
        throw failure;
      }
    },
  };
}
