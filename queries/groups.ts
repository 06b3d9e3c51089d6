import type { Group } from '../src/contract/iam.js';
import { GROUPS, type GroupDoc } from '../projections/groups.js';
import { optionalString } from '../src/http/optional-string.js';
import { findTenantDoc, readModelRoutes } from '../src/http/read-model-routes.js';
import type { ReadModelReader } from '../src/readstore/port.js';

export const groupView = (doc: GroupDoc): Group => ({
  id: doc.id,
  name: doc.name,
  description: optionalString(doc.description),
  permissions: doc.permissions,
  member_ids: doc.memberIds,
  created_at: doc.createdAt,
  updated_at: doc.updatedAt,
});

export const findGroup = (reader: ReadModelReader, tenantId: string, id: string) =>
  findTenantDoc<GroupDoc>(reader, GROUPS, tenantId, id);

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
