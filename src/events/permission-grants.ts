import { z } from 'zod';

/**
 * A map of permission name → "allow" | "deny", as stored in IAM events. Keys are plain strings
 * here on purpose: a permission later dropped from the table must not make old events unreadable.
 * Routes accept only known names (src/contract/bodies/iam.ts); resolution ignores unknown ones.
 */
export const permissionGrantsSchema = z.record(z.string(), z.enum(['allow', 'deny']));

export type PermissionGrants = z.infer<typeof permissionGrantsSchema>;

/** Whether two maps grant and deny exactly the same permissions. */
export const sameGrants = (a: PermissionGrants, b: PermissionGrants) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([name, grant]) => b[name] === grant);
