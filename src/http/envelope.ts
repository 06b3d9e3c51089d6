import type { Context } from 'koa';

/** DESIGN.md section 8: every success is `{ success: true, data }`; lists add `page`. */
export function ok(ctx: Context, data: unknown, status = 200): void {
  ctx.status = status;
  ctx.body = { success: true, data };
}

export function okPage(ctx: Context, items: unknown[], page: { limit: number; next_cursor: string | null }): void {
  ctx.status = 200;
  ctx.body = { success: true, data: items, page };
}

/**
 * The exception to `ok`: where SPEC.md names an answer's top-level fields (sync status and
 * trigger, a channel test, current on-call, slow queries, storage, /ask), a client written from
 * it reads them at the top level, so the answer is those fields with no envelope (the README's
 * table of shapes lists each endpoint and the SPEC.md line it follows).
 */
export function okBare(ctx: Context, body: Record<string, unknown>, status = 200): void {
  ctx.status = status;
  ctx.body = body;
}
