/**
 * Every GET route says which query parameters it accepts; any other is a 400 naming it, as an
 * unknown body field is (a misspelt filter must not silently list everything). Lists accept the
 * page parameters too.
 */
import type { Middleware } from 'koa';
import { badRequest } from './problem.js';
import type { AppState } from './state.js';

/** Accepted by every list (src/http/pagination.ts). */
export const PAGE_PARAMETERS = ['limit', 'cursor'] as const;

export function queryParameters(accepts: readonly string[]): Middleware<AppState> {
  const known = new Set(accepts);
  const check: Middleware<AppState> = async (ctx, next) => {
    const unknown = Object.keys(ctx.query).filter((name) => !known.has(name));
    if (unknown.length > 0) {
      const message = `unknown query parameter; known: ${accepts.length > 0 ? accepts.join(', ') : 'none'}`;
      throw badRequest(
        `unknown query parameter ${unknown.join(', ')}`,
        unknown.map((name) => ({ path: `/${name}`, message })),
      );
    }
    await next();
  };
  // Read by tests walking the route table, like the permission of src/http/guard.ts.
  Object.defineProperty(check, 'acceptedQueryParameters', { value: [...accepts] });
  return check;
}

/** The query parameters of a list: its filters and the page parameters. */
export const listParameters = (filters: readonly string[] = []) => queryParameters([...filters, ...PAGE_PARAMETERS]);
