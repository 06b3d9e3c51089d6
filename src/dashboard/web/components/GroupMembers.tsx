/**
 * A group's members by name, each with Remove, and a user picked by name to add
 * (PUT/DELETE /groups/{id}/members/{user_id}, iam:admin). Refusals show beside the button.
 */
import { useState } from 'preact/hooks';
import type { GroupDetail, User } from '../api/types';
import { ActionButton } from './ActionButton';
import { useSession } from './session-context';

interface Props {
  group: GroupDetail;
  users: User[];
  userName: (id: string) => string;
  named: <T>(call: Promise<T>) => Promise<T>;
  onChanged: () => void;
}

export function GroupMembers({ group, users, userName, named, onChanged }: Props) {
  const { calls, can } = useSession();
  const candidates = users.filter((user) => !group.member_ids.includes(user.id));
  const [picked, setPicked] = useState('');
  const chosen = candidates.some((user) => user.id === picked) ? picked : (candidates[0]?.id ?? '');
  const admin = can('iam:admin');
  return (
    <div class="members">
      {group.member_ids.length === 0 ? (
        <span class="muted">no members</span>
      ) : (
        <ul class="member-list">
          {group.member_ids.map((id) => (
            <li key={id}>
              {userName(id)}{' '}
              <ActionButton
                label={`Remove ${userName(id)}`}
                permission="iam:admin"
                action={async () => (await named(calls.removeMember(group.id, id)), onChanged())}
              />
            </li>
          ))}
        </ul>
      )}
      {candidates.length > 0 ? (
        <span class="add-member">
          <select
            aria-label={`Add a member to ${group.name}`}
            value={chosen}
            disabled={!admin}
            onChange={(e) => setPicked(e.currentTarget.value)}
          >
            {candidates.map((user) => (
              <option key={user.id} value={user.id}>
                {user.name}
              </option>
            ))}
          </select>
          <ActionButton
            label="Add member"
            permission="iam:admin"
            disabled={chosen === ''}
            action={async () => (await named(calls.addMember(group.id, chosen)), onChanged())}
          />
        </span>
      ) : null}
    </div>
  );
}
