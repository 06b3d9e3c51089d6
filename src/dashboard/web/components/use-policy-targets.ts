/**
 * Everything a policy stage may target, by name: users (GET /api/v1/user-names, any token),
 * groups (iam:read), schedules (schedules:read) and notification channels (channels:read). A list
 * the principal may not read is left out rather than failing the editor.
 */
import { useEffect, useState } from 'preact/hooks';
import type { TargetType } from '../api/types';
import { useSession } from './session-context';

export interface TargetChoice {
  type: TargetType;
  id: string;
  name: string;
}

export const TARGET_GROUPS: { type: TargetType; label: string }[] = [
  { type: 'user', label: 'Users' },
  { type: 'group', label: 'Groups' },
  { type: 'schedule', label: 'Schedules' },
  { type: 'channel', label: 'Notification channels' },
];

export function usePolicyTargets(): TargetChoice[] {
  const { calls, can } = useSession();
  const [choices, setChoices] = useState<TargetChoice[]>([]);
  useEffect(() => {
    let current = true;
    const none = () => [] as { id: string; name: string }[];
    const read = <T extends { id: string; name: string }>(allowed: boolean, load: () => Promise<T[]>) =>
      allowed ? load().catch(none) : Promise.resolve(none());
    void Promise.all([
      calls
        .userNames()
        .then((users) => users.filter((user) => !user.removed))
        .catch(none),
      read(can('iam:read'), calls.groups),
      read(can('schedules:read'), calls.schedules),
      read(can('channels:read'), calls.channels),
    ]).then(([users, groups, schedules, channels]) => {
      if (!current) return;
      const as = (type: TargetType, list: { id: string; name: string }[]) =>
        list.map((item) => ({ type, id: item.id, name: item.name }));
      setChoices([
        ...as('user', users),
        ...as('group', groups),
        ...as('schedule', schedules),
        ...as('channel', channels),
      ]);
    });
    return () => {
      current = false;
    };
  }, [calls]);
  return choices;
}

/** A target's name for people; an id the lists do not hold (e.g. no permission to read them) stays short. */
export function targetName(choices: TargetChoice[], type: TargetType, id: string): string {
  return choices.find((choice) => choice.type === type && choice.id === id)?.name ?? `${type} ${id.slice(0, 8)}`;
}
