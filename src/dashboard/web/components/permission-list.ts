/**
 * Every permission the platform knows with what it guards, from the API's own table
 * (src/auth/permissions.ts), so the checkboxes never miss or invent one; and a grant map said in words.
 */
import { PERMISSIONS } from '../../../auth/permissions';
import type { Permission, PermissionGrants } from '../api/types';

export const PERMISSION_LIST = Object.entries(PERMISSIONS).map(([permission, guards]) => ({ permission: permission as Permission, guards }));

/** "allows a, b · denies c", or "leaves every permission open". */
export function grantsInWords(grants: PermissionGrants): string {
  const allowed = PERMISSION_LIST.filter(({ permission }) => grants[permission] === 'allow').map(({ permission }) => permission);
  const denied = PERMISSION_LIST.filter(({ permission }) => grants[permission] === 'deny').map(({ permission }) => permission);
  const parts = [allowed.length > 0 ? `allows ${allowed.join(', ')}` : '', denied.length > 0 ? `denies ${denied.join(', ')}` : ''].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : 'leaves every permission open';
}
