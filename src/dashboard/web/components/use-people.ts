/**
 * Who an id is, as a person reads it: "you" for the signed-in principal, the user's name from
 * GET /api/v1/user-names (any token of the tenant may read it, so an on-call engineer without
 * iam:read sees names too), "escalation" and "evaluator" for the platform's own actors, and a short
 * id only for someone the tenant does not know (a service client).
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { UserName } from '../api/types';
import { describePerson } from '../describe-person.js';
import { useSession } from './session-context';

export type Who = (id: string | null | undefined) => string;
export { describePerson };

export interface People {
  who: Who;
  /** Read the names again (someone new may have acted). */
  refresh: () => void;
}

export function usePeople(): People {
  const { calls, me } = useSession();
  const [names, setNames] = useState<ReadonlyMap<string, UserName>>(new Map());
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    calls.userNames().then(
      (list) => current && setNames(new Map(list.map((user) => [user.id, user]))),
      // Without the names the page still works: people show as short ids.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [calls, round]);
  return {
    who: (id) => describePerson(id, me.principal.user_id, names),
    refresh: useCallback(() => setRound((n) => n + 1), []),
  };
}
