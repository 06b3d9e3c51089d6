/**
 * Who an id is, as a person reads it: "you" for the signed-in principal, the user's name from
 * GET /api/v1/user-names (any token of the tenant may read it, so an on-call engineer without
 * iam:read sees names too), "escalation" and "evaluator" for the platform's own actors, and a short
 * id only for someone the tenant does not know (a service client).
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { UserName } from '../api/types';
import { useSession } from './session-context';

export type Who = (id: string | null | undefined) => string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function describePerson(id: string | null | undefined, me: string, names: ReadonlyMap<string, UserName>): string {
  if (!id) return '—';
  if (id === me) return 'you';
  const known = names.get(id);
  if (known) return known.removed ? `${known.name} (removed)` : known.name;
  // `user:<id>` recipient keys (escalation) name the same people.
  if (id.startsWith('user:')) return describePerson(id.slice(5), me, names);
  if (id.startsWith('system:')) return id.slice('system:'.length);
  // A signed action link used by a channel's recipient (docs/action-links.md): the masked address,
  // or, for a chat or webhook channel with no address to show, the channel.
  if (id.startsWith('recipient:channel:')) return 'a recipient of a channel (action link)';
  if (id.startsWith('recipient:')) return `${id.slice('recipient:'.length)} (action link)`;
  return UUID.test(id) ? `someone else (${id.slice(0, 8)})` : id;
}

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
  return { who: (id) => describePerson(id, me.principal.user_id, names), refresh: useCallback(() => setRound((n) => n + 1), []) };
}
