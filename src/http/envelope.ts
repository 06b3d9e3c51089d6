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
