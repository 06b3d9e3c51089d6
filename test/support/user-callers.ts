/** Small fixtures the user HTTP suites share: a fresh address, and a caller acting as another user of the owner's tenant. */
import { randomUUID } from 'node:crypto';
import type { Caller } from './test-app.js';

export const uniqueAddress = (prefix = 'u') => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

export const asUser = (owner: Caller, userId: string, extra: Record<string, unknown> = {}): Caller => ({
  tenantId: owner.tenantId,
  envId: owner.envId,
  userId,
  ...extra,
});
