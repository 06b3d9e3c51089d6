/**
 * The action-link routes. Public: GET /a/<token> shows what the link will do and changes nothing
 * (mail scanners open links); POST /a/<token> (the page's button, an empty form) does it once.
 * Both answer HTML with a script-free CSP, limited per source address like the token endpoint;
 * both refuse a link whose recipient may no longer act (recipient-standing.ts), and the POST a
 * form from another site or a body other than the button's (confirm-request.ts). No page names
 * anyone but, masked, the link's own recipient.
 * API: POST /action-links/rotate (iam:admin) gives the tenant a new signing key, so every link
 * sent before is refused.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { ok } from '../http/envelope.js';
import { requires } from '../http/guard.js';
import { setReadPosition } from '../http/read-position.js';
import { addressLimitKey, sourceAddress } from '../http/source-address.js';
import type { AppState } from '../http/state.js';
import type { IncidentView } from '../events/incident.js';
import { confirmBodyRefusal, requestIsCrossSite, type ConfirmRefusal } from './confirm-request.js';
import {
  actorOf,
  checkActionLink,
  useActionLink,
  type LinkRefused,
  type LinkUseDeps,
  type Refusal,
} from './link-use.js';
import { ACTION_PAGE_CSP, confirmationPage, donePage, refusalPage, type IncidentSummary } from './page.js';
import { perMinuteLimit } from '../http/per-minute-limit.js';

/** POST /action-links/rotate: no fields. */
export const rotateActionLinkKeyBodySchema = z.strictObject({});

const MAY_NOT_ACT = "This link's recipient may no longer act";
const REFUSALS: Record<Refusal | ConfirmRefusal, { status: number; title: string; text: string }> = {
  not_valid: {
    status: 400,
    title: 'This link is not valid',
    text: 'The link is damaged or was altered. Copy the whole link from the page you received.',
  },
  revoked: { status: 410, title: 'This link was revoked', text: 'An administrator revoked the links sent before now.' },
  expired: {
    status: 410,
    title: 'This link has expired',
    text: 'Action links work for a limited time after the page was sent.',
  },
  used: { status: 410, title: 'This link was already used', text: 'Each link works once, and this one has been used.' },
  no_incident: { status: 404, title: 'No such incident', text: 'The incident this link names does not exist.' },
  already_resolved: {
    status: 409,
    title: 'The incident is already resolved',
    text: 'This incident was already resolved {by}; there is nothing left to do.',
  },
  already_acknowledged: {
    status: 409,
    title: 'The incident is already acknowledged',
    text: 'This incident was already acknowledged {by}; paging has stopped.',
  },
  changed: {
    status: 409,
    title: 'The incident changed',
    text: 'The incident was resolved while this link was being used.',
  },
  // The link is genuine; the one it acts for may not act now, as the API would refuse them (403).
  recipient_inactive: {
    status: 403,
    title: MAY_NOT_ACT,
    text: 'The account this link was sent to is deactivated; its links no longer act.',
  },
  recipient_gone: {
    status: 403,
    title: MAY_NOT_ACT,
    text: 'The account this link was sent to is no longer a member of this organisation; its links no longer act.',
  },
  recipient_not_allowed: {
    status: 403,
    title: MAY_NOT_ACT,
    text: 'The account this link was sent to may not acknowledge or resolve incidents now (it lacks the incidents:write permission).',
  },
  channel_gone: {
    status: 403,
    title: MAY_NOT_ACT,
    text: 'The notification channel this link was sent to was deleted; its links no longer act.',
  },
  cross_site: {
    status: 403,
    title: 'This request came from another site',
    text: 'The button works only on the page the link opens; a form on another site may not use the link.',
  },
  body_type: {
    status: 415,
    title: "This is not the page's button",
    text: 'The button sends an empty form; this request sent another kind of body.',
  },
  body_too_large: {
    status: 413,
    title: 'This request is too large',
    text: 'The button sends an empty form; this request sent more than 1 MiB.',
  },
  body_unreadable: {
    status: 400,
    title: 'This request ended early',
    text: "The request's body ended before its announced length.",
  },
};

const summaryOf = (incident: IncidentView): IncidentSummary => ({
  ruleName: incident.title,
  severity: incident.severity,
  status: incident.status,
  clusterId: incident.cluster_id,
});

function html(ctx: Context, status: number, body: string) {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', ACTION_PAGE_CSP);
  ctx.set('Cache-Control', 'no-store');
  // The token is in the address: no page this one links to may learn it.
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.body = body;
}

/**
 * Who acted, without naming another person: the link's own recipient is told it was them (masked,
 * as the link shows them); anyone else is "someone else", an automatic resolution "automatically".
 */
function actedBy(refused: LinkRefused): string {
  const { claims, incident } = refused;
  const by = refused.refusal === 'already_resolved' ? incident?.resolved_by : incident?.acknowledged_by;
  if (claims && by === actorOf(claims)) return `by you (${claims.recipient.label})`;
  if (refused.refusal === 'already_resolved' && incident?.resolution_reason !== 'manual') return 'automatically';
  return 'by someone else';
}

function refuse(ctx: Context, refused: LinkRefused | { refusal: ConfirmRefusal }) {
  const { status, title, text } = REFUSALS[refused.refusal];
  // A body left unread closes the connection after the answer, as on every route: src/http/close-after-unread-body.ts.
  html(ctx, status, refusalPage(title, 'ok' in refused ? text.replace('{by}', () => actedBy(refused)) : text));
}

export interface ActionLinkRouteDeps extends LinkUseDeps {
  /** Requests per minute from one source address to /a/ (ACTION_LINK_REQUESTS_PER_ADDRESS_PER_MINUTE). */
  perAddressPerMinute: number;
  /** PUBLIC_URL's origin: the confirming POST refuses a form whose Origin is another. */
  publicOrigin: string;
  /** Told of a resolution through a link (the resolutions counter). */
  onResolved: (outcome: { events: unknown[]; state: import('../events/incident.js').IncidentState }) => void;
}

export function actionLinkPublicRoutes(deps: ActionLinkRouteDeps) {
  const router = new Router();
  const limit = perMinuteLimit(deps.perAddressPerMinute);
  const limited = async (ctx: Context) => {
    const wait = await limit.take(
      addressLimitKey(sourceAddress(ctx.req.socket.remoteAddress, ctx.req.headers['x-forwarded-for'])),
    );
    if (wait === undefined) return false;
    ctx.set('Retry-After', String(wait));
    html(
      ctx,
      429,
      refusalPage(
        'Too many requests',
        `At most ${deps.perAddressPerMinute} requests per minute from one address; wait a minute and try again.`,
      ),
    );
    return true;
  };

  router.get('/a/:token', async (ctx) => {
    if (await limited(ctx)) return;
    const check = await checkActionLink(deps, ctx.params.token!);
    if (!check.ok) return refuse(ctx, check);
    html(
      ctx,
      200,
      confirmationPage(
        summaryOf(check.incident),
        check.claims.action,
        check.claims.recipient.label,
        new Date(check.claims.expiresAt * 1000),
      ),
    );
  });
  router.post('/a/:token', async (ctx) => {
    if (await limited(ctx)) return;
    if (requestIsCrossSite(ctx, deps.publicOrigin)) return refuse(ctx, { refusal: 'cross_site' });
    const bodyRefusal = await confirmBodyRefusal(ctx);
    if (bodyRefusal) return refuse(ctx, { refusal: bodyRefusal });
    const use = await useActionLink(deps, ctx.params.token!);
    if (!use.ok) return refuse(ctx, use);
    if (use.claims.action === 'resolve') deps.onResolved(use);
    const incident = use.state.exists ? use.state : use.incident;
    html(ctx, 200, donePage(summaryOf(incident), use.claims.action, use.claims.recipient.label));
  });
  return router;
}

export function actionLinkApiRoutes(deps: Pick<LinkUseDeps, 'keys' | 'waitForProjections'>) {
  const router = new Router<AppState>();
  router.post('/action-links/rotate', requires('iam:admin'), async (ctx) => {
    rotateActionLinkKeyBodySchema.parse(ctx.request.body ?? {});
    const rotated = await deps.keys.rotate(
      ctx.state.principal.tenantId,
      ctx.state.principal.userId,
      ctx.state.requestId,
    );
    setReadPosition(ctx, rotated.position);
    ok(ctx, { key_generation: rotated.generation, rotated_at: rotated.at });
  });
  return router;
}
