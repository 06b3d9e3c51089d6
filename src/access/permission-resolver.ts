import type { Permission } from './permissions.js';
import type { Principal } from './principal.js';

/** Decides whether a principal holds a permission (the IAM resolver: src/auth/iam-permission-resolver.ts). */
export interface PermissionResolver {
  can(principal: Principal, permission: Permission): Promise<boolean>;
}
