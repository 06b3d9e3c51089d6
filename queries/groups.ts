import { GROUPS, type GroupDoc } from '../projections/groups.js';
import type { GrantSource } from '../src/auth/effective-permissions.js';
import { optionalString } from '../src/http/optional-string.js';
import { findTenantDoc, readModelRoutes } from '../src/http/read-model-routes.js';
import type { ReadModelReader } from '../src/readstore/port.js';

export const groupView = (doc: GroupDoc) => ({
  id: doc.id,
  name: doc.name,
  description: optionalString(doc.description),
  permissions: doc.permissions,
  member_ids: doc.memberIds,
  created_at: doc.createdAt,
  updated_at: doc.updatedAt,
});

export const findGroup = (reader: ReadModelReader, tenantId: string, id: string) => findTenantDoc<GroupDoc>(reader, GROUPS, tenantId, id);

/** The tenant's groups among `ids` (others, and other tenants' groups, are left out). */
export async function findGroupsAmong(reader: ReadModelReader, tenantId: string, ids: string[]): Promise<GroupDoc[]> {
  if (ids.length === 0) return [];
  return reader.find<GroupDoc>(GROUPS, { tenantId, id: { $in: ids } });
}

export const groupGrants = (doc: GroupDoc): GrantSource => ({ id: doc.id, permissions: doc.permissions });

export function groupQueryRoutes(deps: { reader: ReadModelReader }) {
  return readModelRoutes<GroupDoc>(deps.reader, {
    path: '/groups',
    resourceName: 'group',
    permission: 'iam:read',
    collection: GROUPS,
    sort: [['createdAt', 'asc']],
    view: groupView,
  });
}
