/**
 * Anti-escalation: iam:write lets a caller create and edit users, but not hand out more than it
 * holds. Assigning a role or groups whose grants exceed the caller's own permissions needs
 * iam:admin (without this rule, any iam:write holder could make itself an owner).
 */
import { permissionsAllowedBy, type GrantSource } from '../src/auth/effective-permissions.js';
import type { Permission } from '../src/auth/permissions.js';
import { forbidden } from '../src/http/problem.js';
import type { AppState } from '../src/http/state.js';

export async function assertCallerMayAssign(state: Pick<AppState, 'can'>, assigned: GrantSource[]): Promise<void> {
  if (assigned.length === 0 || (await state.can('iam:admin'))) return;
  const granted = new Set<Permission>(assigned.flatMap((source) => permissionsAllowedBy(source.permissions)));
  const beyond: Permission[] = [];
  for (const permission of granted) if (!(await state.can(permission))) beyond.push(permission);
  if (beyond.length > 0) {
    const what = assigned.map((source) => source.id).join(', ');
    throw forbidden(`assigning ${what} would grant permissions you do not hold (${beyond.join(', ')}); that needs iam:admin`);
  }
}
