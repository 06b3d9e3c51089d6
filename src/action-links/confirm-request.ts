/**
 * What the confirming POST /a/<token> takes of a request besides the link: not a form on another
 * site, and no body but the page's button's (an empty form). The route answers its own HTML pages
 * for these (a person pressed something), so the platform's JSON body reader leaves /a/ alone
 * (src/http/body.ts, OWN_BODY_PATH_PREFIXES).
 */
import type { Context } from 'koa';
import { hasBody, MAX_BODY_BYTES, readBodyText } from '../http/body.js';
import { HttpProblem } from '../http/problem.js';

export type ConfirmRefusal = 'cross_site' | 'body_type' | 'body_too_large' | 'body_unreadable';

/**
 * Whether the request was sent by a page of another site. Pure. A mail or chat client, curl, or an
 * old browser sends neither header and passes: the link itself is the credential, and refusing them
 * would break the link in the place it is read. A browser says where the form was:
 * `Sec-Fetch-Site` must be `same-origin` (the page's own button) or `none` (typed, bookmarked);
 * an `Origin` must be one of the platform's (PUBLIC_URL's, or the one the request was sent to).
 * `Origin: null` is what a browser sends for a form on a page whose Referrer-Policy is
 * `no-referrer`, as the link's page is: believed only beside `Sec-Fetch-Site: same-origin`.
 */
export function isCrossSite(headers: { origin?: string; fetchSite?: string }, ownOrigins: readonly string[]): boolean {
  const { origin, fetchSite } = headers;
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') return true;
  if (origin === undefined) return false;
  if (origin === 'null') return fetchSite !== 'same-origin';
  return !ownOrigins.includes(origin);
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : value);

/** `isCrossSite` of the request, against PUBLIC_URL's origin and the origin the request names itself. */
export const requestIsCrossSite = (ctx: Context, publicOrigin: string) =>
  // Not ctx.origin: Koa 3 gives the Origin header there, not the request's own origin.
  isCrossSite({ origin: single(ctx.req.headers.origin), fetchSite: single(ctx.req.headers['sec-fetch-site']) }, [
    publicOrigin,
    `${ctx.protocol}://${ctx.host}`,
  ]);

/**
 * Reads (and drops) the body of an empty or form body; anything else is refused unread: another
 * type (415), more than 1 MiB (413), a body that ended early (400).
 */
export async function confirmBodyRefusal(ctx: Context): Promise<ConfirmRefusal | null> {
  if (!hasBody(ctx.req)) return null;
  if (Number(ctx.get('Content-Length') || 0) > MAX_BODY_BYTES) return 'body_too_large';
  if (!ctx.is('application/x-www-form-urlencoded')) return 'body_type';
  try {
    await readBodyText(ctx);
    return null;
  } catch (error) {
    if (!(error instanceof HttpProblem)) throw error;
    return error.status === 413 ? 'body_too_large' : 'body_unreadable';
  }
}
