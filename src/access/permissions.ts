/** The permission table lives in src/contract/permissions.ts (the API's answers name permissions); re-exported for the access vocabulary. */
export { ALL_PERMISSIONS, isPermission, PERMISSIONS, type Permission } from '../contract/permissions.js';
