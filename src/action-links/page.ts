/**
 * The pages an action link answers: small, server-rendered, no script and no outside resources,
 * readable on a phone; every value from the incident is escaped. Pure.
 */
import type { ActionLinkAction } from '../events/action-link.js';

export const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** No script, no plugin, no framing; the form may post only back here; styles only inline. */
export const ACTION_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export const ACTION_WORDS: Record<ActionLinkAction, { verb: string; done: string }> = {
  acknowledge: { verb: 'Acknowledge', done: 'acknowledged' },
  resolve: { verb: 'Resolve', done: 'resolved' },
};

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}' +
  'h1{font-size:1.3rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{color:#555}dd{margin:0;overflow-wrap:anywhere}' +
  'button{font-size:1.1rem;padding:.8rem 1.5rem;border:0;border-radius:.4rem;background:#1d4ed8;color:#fff;width:100%}' +
  '.note{color:#555;font-size:.9rem}';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>
`;
}

export interface IncidentSummary {
  ruleName: string;
  severity: string;
  status: string;
  clusterId: string | null;
}

const details = (incident: IncidentSummary, action: ActionLinkAction, as: string) => `<dl>
<dt>Incident</dt><dd>${escapeHtml(incident.ruleName)}</dd>
<dt>Severity</dt><dd>${escapeHtml(incident.severity)}</dd>
<dt>Cluster</dt><dd>${escapeHtml(incident.clusterId ?? '-')}</dd>
<dt>Status</dt><dd>${escapeHtml(incident.status)}</dd>
<dt>Action</dt><dd>${escapeHtml(ACTION_WORDS[action].verb)}</dd>
<dt>As</dt><dd>${escapeHtml(as)}</dd>
</dl>`;

/** GET: what the link will do, and the one button that does it (a POST to the same address). */
export function confirmationPage(
  incident: IncidentSummary,
  action: ActionLinkAction,
  as: string,
  expiresAt: Date,
): string {
  const verb = ACTION_WORDS[action].verb;
  return page(
    `${verb} this incident?`,
    `${details(incident, action, as)}
<form method="post"><button type="submit">${escapeHtml(verb)} as ${escapeHtml(as)}</button></form>
<p class="note">The link works once, until ${escapeHtml(expiresAt.toISOString())}. Opening it changes nothing; only the button does.</p>`,
  );
}

/** After the POST: what was done. */
export function donePage(incident: IncidentSummary, action: ActionLinkAction, as: string): string {
  return page(
    `Incident ${ACTION_WORDS[action].done}`,
    `${details(incident, action, as)}
<p>Recorded as ${escapeHtml(as)}. You can close this page.</p>`,
  );
}

/** Why nothing was done (used, expired, revoked, not valid, already resolved, …). */
export function refusalPage(title: string, explanation: string): string {
  return page(
    title,
    `<p>${escapeHtml(explanation)}</p>
<p class="note">Nothing was changed. Open the platform to act on the incident, or use the link of a newer page.</p>`,
  );
}
