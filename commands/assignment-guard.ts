/**
 * Anti-escalation: iam:write lets a caller create and edit users, but not hand out more than it
 * holds. Assigning a role or groups that allow an acting permission (anything but `:read`) the
 * caller lacks needs iam:admin; without this rule any iam:write holder could create an owner
 * account for itself. Read permissions are not treated as escalation, so a caller whose own reads
 * are narrowed (e.g. by a group deny) can still create ordinary viewers.
 */
import { permissionsAllowedBy, type GrantSource } from '../src/auth/effective-permissions.js';
import type { Permission } from '../src/auth/permissions.js';
import { forbidden } from '../src/http/problem.js';
import type { AppState } from '../src/http/state.js';

export async function assertCallerMayAssign(state: Pick<AppState, 'can'>, assigned: GrantSource[]): Promise<void> {
  if (assigned.length === 0 || (await state.can('iam:admin'))) return;
  const granted = new Set<Permission>(assigned.flatMap((source) => permissionsAllowedBy(source.permissions)).filter((p) => !p.endsWith(':read')));
  const beyond: Permission[] = [];
  for (const permission of granted) if (!(await state.can(permission))) beyond.push(permission);
  if (beyond.length > 0) {
    const what = assigned.map((source) => source.id).join(', ');
    throw forbidden(`assigning ${what} would grant permissions you do not hold (${beyond.join(', ')}); that needs iam:admin`);
  }
}
