/** Action links (src/action-links, docs/action-links.md): the public pages and the key rotation. */
import { z } from 'zod';
import { rotateActionLinkKeyBodySchema } from '../action-links/routes.js';
import type { OperationDoc } from './operation.js';

const tag = 'Action links';
const page = (description: string) => ({
  kind: 'raw' as const,
  status: 200 as const,
  contentType: 'text/html',
  description,
});
/** Refusals are pages too (text/html, not problem+json): a person opened the link in a mail or chat. */
type Refusal = readonly [number, string];
const linkRefusals: Refusal[] = [
  [400, 'Not a valid link (damaged or altered)'],
  [404, "No such incident (also another tenant's)"],
  [
    403,
    "The link's recipient may no longer act: the user is deactivated, removed, or lacks `incidents:write` now (as the API resolves it: overrides, groups, role, tenant defaults), or the channel was deleted",
  ],
  [409, 'The incident is already resolved, or already acknowledged'],
  [410, 'The link was used, has expired, or was revoked (the key was rotated)'],
  [429, 'Too many requests from this address (`Retry-After`)'],
];
const confirmRefusals: Refusal[] = [
  [400, 'Not a valid link (damaged or altered), or the body ended early'],
  [
    403,
    `${linkRefusals[2]![1]}; or a form from another site (\`Sec-Fetch-Site\` other than \`same-origin\`/\`none\`, or an \`Origin\` not the platform's)`,
  ],
  [413, 'A body over 1 MiB'],
  [415, 'A body that is not a form (`application/x-www-form-urlencoded`): JSON, text, …'],
];
const pages = (refusals: Refusal[]) =>
  Object.fromEntries(
    refusals.map(([status, description]) => [status, { description, contentType: 'text/html', schema: z.string() }]),
  );
const refusals =
  'Refusals are HTML pages too, and change nothing: 400 not valid (damaged or altered), 403 the recipient may no longer act (deactivated, removed, ' +
  "without `incidents:write`, or a deleted channel), 404 no such incident (also another tenant's), " +
  '409 already resolved / already acknowledged, 410 used, expired or revoked (the key was rotated), 429 too many requests from the address (`Retry-After`). ' +
  "No page names who acted, but for the link's own recipient (masked).";

/** The button's form: no fields (any sent are ignored). */
const confirmBodySchema = z.object({});

export const actionLinkOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/a/:token',
    tag,
    summary: 'What an action link will do (public; changes nothing)',
    description: `No sign-in: the signed token is the credential. Shows the incident, the action and who it is recorded as, with one button that POSTs to the same address. ${refusals}`,
    response: page('The confirmation page (no script; `Content-Security-Policy` allows none)'),
    otherResponses: pages(linkRefusals),
  },
  {
    method: 'post',
    path: '/a/:token',
    tag,
    summary: 'Do what an action link says, once (public)',
    description:
      `The page's button (an empty form). Acknowledges or resolves the incident as the link's recipient, through the same decider as the API, and spends the link. ${refusals} ` +
      "Besides: 403 a form from another site (`Sec-Fetch-Site` other than `same-origin` or `none`, or an `Origin` other than the platform's; a request with neither, as a mail client sends, is taken), " +
      '415 a body that is not a form, 413 a body over 1 MiB, 400 a body that ended early — all HTML pages.',
    body: confirmBodySchema,
    bodyOptional: true,
    bodyTypes: ['application/x-www-form-urlencoded'],
    response: page('What was done'),
    otherResponses: pages([...linkRefusals.filter(([status]) => status !== 400 && status !== 403), ...confirmRefusals]),
  },
  {
    method: 'post',
    path: '/action-links/rotate',
    tag,
    summary: 'Revoke every action link sent so far (a new signing key for the tenant)',
    description:
      'Links in pages sent before answer "revoked" from now on; pages sent after carry links signed with the new key.',
    body: rotateActionLinkKeyBodySchema,
    bodyOptional: true,
    response: {
      kind: 'envelope',
      status: 200,
      etag: false,
      description: "The new key's generation (never the key)",
      data: z.object({ key_generation: z.number().int(), rotated_at: z.string() }),
    },
  },
];
