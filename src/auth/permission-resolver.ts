import type { Permission } from './permissions.js';
import type { Principal } from './principal.js';

/** Decides whether a principal holds a permission. Replaced by the IAM resolver once it exists. */
export interface PermissionResolver {
  can(principal: Principal, permission: Permission): Promise<boolean>;
}

/** Until IAM: the role `owner` in the token's roles claim grants everything, nothing else does. */
export const ownerRoleResolver: PermissionResolver = {
  async can(principal) {
    return principal.roles.includes('owner');
  },
};
