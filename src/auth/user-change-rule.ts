/**
 * Who may change an existing user (issue 25, items 1 and 4). Pure: the caller gathers the
 * permissions; this decides. Two rules, both waived for iam:admin:
 *
 *  1. Protecting a principal: changing another user's email, phone, role, groups, permission
 *     overrides or active state, or inviting it, needs that the actor holds every permission the
 *     target holds. Otherwise an iam:write holder could point an owner's login (email + invite) or
 *     pages (phone) at itself, or lock the owner out. The name grants nothing and stays open.
 *  2. A change grants what it adds: every acting permission (anything but `:read`, as for
 *     assigning a role or group) the target holds after the change and did not hold before needs
 *     the actor to hold it. Effective permissions are compared, so leaving a group that denied
 *     something, or dropping a role whose deny outweighed a default, is a grant like any other.
 */
import type { UserProfile } from '../events/user.js';
import type { Permission } from '../access/permissions.js';

export interface UserChangeFacts {
  /** The actor changes its own user. */
  self: boolean;
  /** What the actor holds (allowed effective permissions). */
  actorHolds: ReadonlySet<Permission>;
  /** The target's allowed effective permissions before and after the change. */
  targetBefore: readonly Permission[];
  targetAfter: readonly Permission[];
  /** Protected fields the change alters (see protectedChanges), or 'invitation'. */
  protectedChanges: readonly string[];
}

export type UserChangeVerdict = { allowed: true } | { allowed: false; reason: string };

const lacking = (actor: ReadonlySet<Permission>, wanted: Iterable<Permission>) =>
  [...new Set(wanted)].filter((permission) => !actor.has(permission));

export function decideUserChange(facts: UserChangeFacts): UserChangeVerdict {
  const { actorHolds } = facts;
  if (actorHolds.has('iam:admin')) return { allowed: true };
  if (!facts.self && facts.protectedChanges.length > 0) {
    const beyond = lacking(actorHolds, facts.targetBefore);
    if (beyond.length > 0) {
      return {
        allowed: false,
        reason: `changing ${facts.protectedChanges.join(', ')} of a user who holds permissions you do not hold (${beyond.join(', ')}) needs iam:admin`,
      };
    }
  }
  const before = new Set(facts.targetBefore);
  const gained = facts.targetAfter.filter((permission) => !before.has(permission) && !permission.endsWith(':read'));
  const beyond = lacking(actorHolds, gained);
  if (beyond.length > 0)
    return {
      allowed: false,
      reason: `this change would grant permissions you do not hold (${beyond.join(', ')}); that needs iam:admin`,
    };
  return { allowed: true };
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/** The protected fields (API names) a change really alters; sending the current value is no change. */
export function protectedChanges(
  current: UserProfile,
  currentlyActive: boolean,
  changes: Partial<UserProfile>,
  isActive?: boolean,
): string[] {
  const changed: string[] = [];
  if (changes.email !== undefined && changes.email !== current.email) changed.push('email');
  if (changes.phone !== undefined && (changes.phone ?? null) !== (current.phone ?? null)) changed.push('phone');
  if (changes.roleId !== undefined && changes.roleId !== current.roleId) changed.push('role_id');
  if (changes.groupIds !== undefined && !sameSet(changes.groupIds, current.groupIds)) changed.push('group_ids');
  if (isActive !== undefined && isActive !== currentlyActive) changed.push('is_active');
  return changed;
}

/**
 * Whether a change's checks (the anti-takeover rule above and the assignment check, which looks
 * only at what is newly granted) were decided on the target as read, so the change must apply to
 * exactly that revision: a concurrent change (the target made owner, a group added) would
 * otherwise be re-decided by the command's conflict retry without the checks. Renaming is allowed
 * whoever the target is, so a name-only change keeps the retry.
 */
export function changeCheckedAgainstTarget(changes: Partial<UserProfile>, isActive?: boolean): boolean {
  return (
    isActive !== undefined || Object.entries(changes).some(([field, value]) => field !== 'name' && value !== undefined)
  );
}
