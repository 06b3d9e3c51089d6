/**
 * How the People pages say things (pure, so it is tested without a browser): every permission with
 * what it guards, from the API's own table (src/access/permissions.ts, bundled), so the checkboxes never
 * miss or invent one; a permission map in words; and ids in an API refusal said as names.
 */
import { PERMISSIONS } from '../../access/permissions.js';
import { uuidsInText } from '../../contract/vocabulary.js';
import type { Permission, PermissionGrants } from './api/types.js';

export const PERMISSION_LIST = Object.entries(PERMISSIONS).map(([permission, guards]) => ({
  permission: permission as Permission,
  guards,
}));

/** "allows a, b · denies c", or "leaves every permission open". */
export function grantsInWords(grants: PermissionGrants): string {
  const allowed = PERMISSION_LIST.filter(({ permission }) => grants[permission] === 'allow').map(
    ({ permission }) => permission,
  );
  const denied = PERMISSION_LIST.filter(({ permission }) => grants[permission] === 'deny').map(
    ({ permission }) => permission,
  );
  const parts = [
    allowed.length > 0 ? `allows ${allowed.join(', ')}` : '',
    denied.length > 0 ? `denies ${denied.join(', ')}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : 'leaves every permission open';
}

/** `text` with every id `names` knows (lower-case keys) said as its name; unknown ids stay. */
export function withNames(text: string, names: ReadonlyMap<string, string>): string {
  return text.replace(uuidsInText(), (id) => names.get(id.toLowerCase()) ?? id);
}
