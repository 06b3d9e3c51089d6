/** Action links (src/action-links, docs/action-links.md): the public pages and the key rotation. */
import { z } from 'zod';
import { rotateActionLinkKeyBodySchema } from '../action-links/routes.js';
import type { OperationDoc } from './operation.js';

const tag = 'Action links';
const page = (description: string) => ({ kind: 'raw' as const, status: 200 as const, contentType: 'text/html', description });
/** Refusals are pages too (text/html, not problem+json): a person opened the link in a mail or chat. */
const refusalPages = Object.fromEntries(([
  [400, 'Not a valid link (damaged or altered)'], [404, 'No such incident (also another tenant\'s)'],
  [409, 'The incident is already resolved, or already acknowledged'], [410, 'The link was used, has expired, or was revoked (the key was rotated)'],
  [429, 'Too many requests from this address (`Retry-After`)'],
] as const).map(([status, description]) => [status, { description, contentType: 'text/html', schema: z.string() }]));
const refusals = 'Refusals are HTML pages too, and change nothing: 400 not valid (damaged or altered), 404 no such incident (also another tenant\'s), '
  + '409 already resolved / already acknowledged, 410 used, expired or revoked (the key was rotated), 429 too many requests from the address (`Retry-After`).';

export const actionLinkOperations: OperationDoc[] = [
  {
    method: 'get', path: '/a/:token', tag, summary: 'What an action link will do (public; changes nothing)',
    description: `No sign-in: the signed token is the credential. Shows the incident, the action and who it is recorded as, with one button that POSTs to the same address. ${refusals}`,
    response: page('The confirmation page (no script; `Content-Security-Policy` allows none)'),
    otherResponses: refusalPages,
  },
  {
    method: 'post', path: '/a/:token', tag, summary: 'Do what an action link says, once (public)',
    description: `The page's button (an empty form). Acknowledges or resolves the incident as the link's recipient, through the same decider as the API, and spends the link. ${refusals}`,
    response: page('What was done'),
    otherResponses: refusalPages,
  },
  {
    method: 'post', path: '/action-links/rotate', tag, summary: 'Revoke every action link sent so far (a new signing key for the tenant)',
    description: 'Links in pages sent before answer "revoked" from now on; pages sent after carry links signed with the new key.',
    body: rotateActionLinkKeyBodySchema, bodyOptional: true,
    response: {
      kind: 'envelope', status: 200, etag: false, description: 'The new key\'s generation (never the key)',
      data: z.object({ key_generation: z.number().int(), rotated_at: z.string() }),
    },
  },
];
