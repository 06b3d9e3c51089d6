/**
 * The list + get pair every resource serves from its read model, written once. The list always
 * filters by the token's tenant inside the query itself; a get of another tenant's document is a
 * 404 like an unknown id (its existence is never revealed).
 */
import Router from '@koa/router';
import type { Permission } from '../access/permissions.js';
import type { Doc, Filter, ReadModelReader, Sort } from '../readstore/port.js';
import { etagOf, type CommandContext } from './command-context.js';
import { ok, okPage } from './envelope.js';
import { requires } from './guard.js';
import { pageRequest, readPage } from './pagination.js';
import { notFound } from './problem.js';
import { listParameters, queryParameters } from './query-parameters.js';
import type { AppState } from './state.js';

/** The tenant's document with this id, or null (also for another tenant's, or one `visible` hides). */
export async function findTenantDoc<D extends Doc>(
  reader: ReadModelReader,
  collection: string,
  tenantId: string,
  id: string,
  visible: (doc: D) => boolean = () => true,
): Promise<D | null> {
  const doc = await reader.get<D>(collection, id);
  return doc && doc.tenantId === tenantId && visible(doc) ? doc : null;
}

export interface ReadModelResource<D extends Doc> {
  /** Collection path, e.g. `/notification-channels`; the item is `${path}/:id`. */
  path: string;
  /** For the 404 message, e.g. "notification channel". */
  resourceName: string;
  permission: Permission;
  collection: string;
  sort: Sort;
  view: (doc: D) => unknown;
  /** Which of the tenant's documents exist for clients (e.g. not removed ones). */
  visible?: (doc: D) => boolean;
  /** Filters from the query string, beyond the tenant (validated; throws a 400). */
  listFilter?: (ctx: CommandContext) => Filter;
  /** The query parameters `listFilter` reads; any other but `limit` and `cursor` is a 400. */
  accepts?: readonly string[];
  /** The item answer carries the document's revision as its ETag (default true). */
  etag?: boolean;
  /** Serve `${path}/:id` too (default true; false where the resource answers it in its own way). */
  item?: boolean;
}

export function readModelRoutes<D extends Doc>(
  reader: ReadModelReader,
  resource: ReadModelResource<D>,
): Router<AppState> {
  const router = new Router<AppState>();
  router.get(resource.path, requires(resource.permission), listParameters(resource.accepts), async (ctx) => {
    // The tenant first, so the literal does not start with a spread and then add a key (a hidden
    // class per object on Node 20, bench/README.md); and set again last, so no list filter replaces it.
    const tenantId = ctx.state.principal.tenantId;
    const filter: Filter = { tenantId, ...resource.listFilter?.(ctx) };
    filter.tenantId = tenantId;
    const { items, page } = await readPage<D>(reader, resource.collection, filter, resource.sort, pageRequest(ctx));
    okPage(ctx, items.map(resource.view), page);
  });
  if (resource.item === false) return router;
  router.get(`${resource.path}/:id`, requires(resource.permission), queryParameters([]), async (ctx) => {
    const doc = await findTenantDoc(
      reader,
      resource.collection,
      ctx.state.principal.tenantId,
      ctx.params.id!,
      resource.visible,
    );
    if (!doc) throw notFound(resource.resourceName);
    if (resource.etag !== false) ctx.set('ETag', etagOf(Number(doc.revision)));
    ok(ctx, resource.view(doc));
  });
  return router;
}
