/**
 * Read-your-writes across instances. Every answer to a command that appended events carries
 * `X-Read-Position`: the log position of its last event. A GET that sends it back, as the header
 * `X-Min-Read-Position` or the query parameter `min_position`, is answered once this instance's
 * projections have reached it, whichever instance took the write; the wait is bounded as a
 * command's own is (READ_YOUR_WRITES_TIMEOUT_MS), after which the GET is answered anyway with
 * `X-Read-Model-Pending: true`.
 *
 * `min_position` is taken off the query before the route sees it, so every GET accepts it without
 * each route declaring it (src/http/query-parameters.ts refuses undeclared parameters).
 */
import type { Context, Middleware } from 'koa';
import { badRequest } from './problem.js';
import type { AppState } from './state.js';

export const READ_POSITION_HEADER = 'X-Read-Position';
export const MIN_READ_POSITION_HEADER = 'X-Min-Read-Position';
export const MIN_POSITION_PARAMETER = 'min_position';

/** Log positions are unsigned 64-bit (EventStoreDB's commit positions; SQLite's rowids are smaller). */
const MAX_POSITION = 2n ** 64n - 1n;
const DECIMAL = /^\d{1,20}$/;

/** Sets X-Read-Position; an answer that ran several commands carries the highest of their positions. */
export function setReadPosition(ctx: Context, position: bigint | null): void {
  if (position === null) return;
  // Koa answers undefined (despite its type) for a header not set.
  const current = ctx.response.get(READ_POSITION_HEADER) as string | undefined;
  if (current && BigInt(current) >= position) return;
  ctx.set(READ_POSITION_HEADER, String(position));
}

function parsePosition(raw: unknown, name: string, pointer: string): bigint {
  const position = typeof raw === 'string' && DECIMAL.test(raw) ? BigInt(raw) : undefined;
  if (position === undefined || position > MAX_POSITION) {
    throw badRequest(`${name} must be one log position: a whole decimal number, as X-Read-Position gave it`, [
      { path: pointer, message: 'must be a decimal log position (0 to 2^64 - 1)' },
    ]);
  }
  return position;
}

/** The position a GET asks to read at (the higher of header and parameter), or undefined. */
function requestedPosition(ctx: Context): bigint | undefined {
  const header = ctx.get(MIN_READ_POSITION_HEADER);
  const { [MIN_POSITION_PARAMETER]: parameter, ...rest } = ctx.query;
  const positions: bigint[] = [];
  if (header !== '')
    positions.push(parsePosition(header.trim(), MIN_READ_POSITION_HEADER, `/${MIN_READ_POSITION_HEADER}`));
  if (parameter !== undefined) {
    positions.push(parsePosition(parameter, MIN_POSITION_PARAMETER, `/${MIN_POSITION_PARAMETER}`));
    ctx.query = rest;
  }
  return positions.reduce<bigint | undefined>(
    (highest, position) => (highest === undefined || position > highest ? position : highest),
    undefined,
  );
}

/**
 * Runs after authentication and the deactivated-user check: reads and checks the position (400 when
 * malformed) and takes it off the query, but does not wait. The wait is `reachReadPosition`, which
 * the route guards call once the caller is authorised (src/http/guard.ts): an unauthorised or
 * anonymous caller never makes the platform wait, whatever position it names.
 */
export function readAtPosition(deps: { waitFor: (position: bigint) => Promise<boolean> }): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const position = requestedPosition(ctx);
    if (position !== undefined) {
      let reached: Promise<void> | undefined;
      ctx.state.reachReadPosition = () =>
        (reached ??= deps.waitFor(position).then((ok) => {
          if (!ok) ctx.set('X-Read-Model-Pending', 'true');
        }));
    }
    await next();
  };
}

/** Waits for the position the request named, if any (once per request); called by the route guards after authorisation. */
export const reachReadPosition = (ctx: Context) => (ctx.state as Partial<AppState>).reachReadPosition?.();
