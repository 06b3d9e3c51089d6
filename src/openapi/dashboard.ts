/** The web dashboard's page and files (src/dashboard/routes.ts): public, like /health; its API calls carry the token. */
import { z } from 'zod';
import type { OperationDoc } from './operation.js';

const tag = 'Dashboard';

export const dashboardOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/',
    tag,
    summary: 'The dashboard page',
    response: {
      kind: 'raw',
      status: 200,
      contentType: 'text/html',
      description: 'The page (it signs in and calls the API from the browser)',
      conditional: true,
    },
  },
  {
    method: 'get',
    path: '/dashboard/app.js',
    tag,
    summary: "The dashboard's script",
    problems: { 503: 'The script could not be built (the log says why)' },
    response: {
      kind: 'raw',
      status: 200,
      contentType: 'text/javascript',
      description: 'The script bundle',
      conditional: true,
    },
  },
  {
    method: 'get',
    path: '/dashboard/app.css',
    tag,
    summary: "The dashboard's stylesheet",
    response: { kind: 'raw', status: 200, contentType: 'text/css', description: 'The stylesheet', conditional: true },
  },
  ...(['js', 'css'] as const).map(
    (kind): OperationDoc => ({
      method: 'get',
      path: `/dashboard/app.:hash.${kind}`,
      tag,
      summary: `The dashboard's ${kind === 'js' ? 'script' : 'stylesheet'}, named by its content`,
      description:
        "The name the page refers to (`hash`: of the content, this build's only). Cached as `public, max-age=31536000, immutable`; " +
        "brotli or gzip per Accept-Encoding. Another build's hash answers 404.",
      problems: {
        404: "No such file in this build (another build's hash, or not a hash): reload the page",
        ...(kind === 'js' ? { 503: 'The script could not be built (the log says why)' } : {}),
      },
      response: {
        kind: 'raw',
        status: 200,
        contentType: kind === 'js' ? 'text/javascript' : 'text/css',
        description: `The ${kind === 'js' ? 'script bundle' : 'stylesheet'}`,
        conditional: true,
      },
    }),
  ),
  {
    method: 'get',
    path: '/dashboard/config.json',
    tag,
    summary: "The dashboard's settings",
    response: {
      kind: 'raw',
      status: 200,
      contentType: 'application/json',
      description: 'What the page needs to get a token',
      schema: z.object({
        audience: z.string().meta({ description: 'the `aud` tokens must carry (BASE_URL)' }),
        identity_provider: z
          .enum(['embedded', 'external'])
          .meta({ description: '`embedded`: this platform issues tokens at /oauth/token' }),
      }),
    },
  },
];
