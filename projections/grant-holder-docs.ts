/**
 * Roles and groups are folded the same way into their read models: one document per live role or
 * group with its name, description and permission map. Shared by projections/roles.ts and
 * projections/groups.ts, as their deciders share commands/grant-holder.ts.
 */
import type { PermissionGrants } from '../src/events/permission-grants.js';
import type { RecordedEvent } from '../src/eventstore/port.js';
import type { ReadModelWriter } from '../src/readstore/port.js';

export interface GrantHolderDoc {
  id: string;
  tenantId: string;
  name: string;
  description: string;
  permissions: PermissionGrants;
  createdAt: string;
  updatedAt: string;
  revision: number;
  [field: string]: unknown;
}

export interface GrantHolderEventNames {
  created: string;
  updated: string;
  deleted: string;
  /** The event data field that holds the id (roleId, groupId). */
  idField: string;
}

/** Applies a created/updated/deleted event of a role or group; `extra` adds fields to a new document. */
export async function applyGrantHolderEvent(
  collection: string,
  names: GrantHolderEventNames,
  event: RecordedEvent,
  writer: ReadModelWriter,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const at = event.metadata.occurredAt;
  const data = event.data as { name: string; description: string; permissions: PermissionGrants } & Record<
    string,
    unknown
  >;
  const id = String(data[names.idField]);
  const fields = {
    name: data.name,
    description: data.description,
    permissions: data.permissions,
    updatedAt: at,
    revision: Number(event.revision),
  };
  switch (event.type) {
    case names.created:
      await writer.upsert(collection, {
        id,
        tenantId: event.metadata.tenantId,
        ...fields,
        createdAt: at,
        ...extra,
      } satisfies GrantHolderDoc);
      break;
    case names.updated:
      await writer.patch(collection, id, fields);
      break;
    case names.deleted:
      await writer.delete(collection, id);
      break;
  }
}
