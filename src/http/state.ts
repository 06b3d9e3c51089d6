import type { Permission } from '../access/permissions.js';
import type { Principal } from '../access/principal.js';

/** What the platform middlewares put on ctx.state before a route runs. */
export interface AppState {
  requestId: string;
  principal: Principal;
  /** Whether the principal holds a permission (resolved by the permission resolver). */
  can: (permission: Permission) => Promise<boolean>;
  /** The same question asked again now, not from this request's cache (long-lived streams). */
  canStill: (permission: Permission) => Promise<boolean>;
  /** Waits for the read position a GET named (src/http/read-position.ts); absent when it named none. */
  reachReadPosition?: () => Promise<void>;
}
