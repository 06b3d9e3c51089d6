/**
 * Who an actor id is, as a person reads it (pure; components/use-people.ts feeds it the tenant's
 * names). Imported by node tests too, hence the `.js` type import.
 */
import { UUID_PATTERN } from '../../contract/vocabulary.js';
import type { UserName } from './api/types.js';

export function describePerson(
  id: string | null | undefined,
  me: string,
  names: ReadonlyMap<string, UserName>,
): string {
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
  return UUID_PATTERN.test(id) ? `someone else (${id.slice(0, 8)})` : id;
}
