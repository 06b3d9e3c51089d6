/**
 * The routes outside the areas: the public ones at the root (health, metrics, the built-in identity
 * provider, this document and its reference page) and stream tickets.
 */
import { z } from 'zod';
import { tokenRequestSchema } from '../auth/embedded-idp.js';
import { MAX_BODY_BYTES } from '../http/body.js';
import { ticketRequestSchema } from '../http/stream-tickets.js';
import type { OperationDoc } from './operation.js';
import { instant } from './shared-schemas.js';

const tag = 'Platform';
const check = z.looseObject({
  status: z.enum(['up', 'down', 'not_checked', 'not_opened', 'opening', 'paused']).meta({
    description:
      'up: verified; down: failed (503); not_checked / not_opened / opening: nothing verified; paused: a simulated cluster is paused',
  }),
  latency_ms: z.number().optional(),
  error: z.string().optional(),
});

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  checks: z.record(z.string(), check),
  projections: z.array(
    z.object({
      name: z.string(),
      position: z.string(),
      lag: z.number(),
      failing: z.unknown().optional(),
      /** A new version of this read model is being built beside the live one, this far into the log. */
      building: z.object({ position: z.string(), head: z.string() }).optional(),
    }),
  ),
});

/** The outline of an OpenAPI 3.1 document (its full schema is the OpenAPI specification's). */
const openApiDocumentSchema = z
  .looseObject({
    openapi: z.string().meta({ description: '3.1.0' }),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    servers: z.array(z.looseObject({ url: z.string() })),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
    components: z.record(z.string(), z.unknown()),
  })
  .meta({ description: 'An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0)' });

const oauthError = z.object({
  error: z.enum(['invalid_request', 'invalid_client', 'unsupported_grant_type']),
  error_description: z.string(),
});

export const platformOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/health',
    tag,
    summary: 'Health of the platform and its dependencies',
    response: {
      kind: 'raw',
      status: 200,
      alsoStatus: 503,
      contentType: 'application/json',
      description: '200 unless a check is down (then 503)',
      schema: healthSchema,
    },
  },
  {
    method: 'get',
    path: '/health/ready',
    tag,
    summary: 'Readiness for a load balancer (the same answer as /health)',
    description:
      '503 `degraded` while the event store refuses appends (until one succeeds again), while a projection is failing or stopped, while a read model is more than HEALTH_MAX_PROJECTION_LAG events behind the log, or while a dependency is down; each reason is the `error` of its check.',
    response: {
      kind: 'raw',
      status: 200,
      alsoStatus: 503,
      contentType: 'application/json',
      description: '200 unless a check is down (then 503)',
      schema: healthSchema,
    },
  },
  {
    method: 'get',
    path: '/health/live',
    tag,
    summary: 'Liveness: the process serves requests',
    description:
      'Always 200 while the process answers; none of the readiness reasons is cured by a restart, so a liveness probe must not restart the process for them.',
    response: {
      kind: 'raw',
      status: 200,
      contentType: 'application/json',
      description: 'The process answers',
      schema: z.object({ status: z.literal('ok') }),
    },
  },
  {
    method: 'get',
    path: '/metrics',
    tag,
    summary: 'Prometheus metrics',
    response: { kind: 'raw', status: 200, contentType: 'text/plain', description: 'Prometheus text exposition format' },
  },
  {
    method: 'get',
    path: '/openapi.json',
    tag,
    summary: 'This document (OpenAPI 3.1)',
    response: {
      kind: 'raw',
      status: 200,
      contentType: 'application/json',
      description: 'The OpenAPI document',
      schema: openApiDocumentSchema,
    },
  },
  {
    method: 'get',
    path: '/docs',
    tag,
    summary: 'The API reference page (Swagger UI, served locally)',
    response: { kind: 'raw', status: 200, contentType: 'text/html', description: 'The reference page' },
  },
  {
    method: 'get',
    path: '/.well-known/jwks.json',
    tag,
    summary: "The built-in identity provider's public keys",
    description: 'Only without AUTH_JWKS_URI (the platform is its own identity provider).',
    response: {
      kind: 'raw',
      status: 200,
      contentType: 'application/json',
      description: 'A JWK set',
      schema: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }),
    },
  },
  {
    method: 'post',
    path: '/oauth/token',
    tag,
    summary: 'A token from the built-in identity provider (client-credentials grant)',
    description:
      'Only without AUTH_JWKS_URI. RFC 6749: the body as JSON or `application/x-www-form-urlencoded`; the client authenticates with `client_id`/`client_secret` in the body or with HTTP Basic, not both. Errors are `{ error, error_description }` (not problem+json), except the 429 of the rate limits (TOKEN_REQUESTS_PER_ADDRESS_PER_MINUTE, TOKEN_FAILURES_PER_CLIENT_PER_MINUTE, TOKEN_ISSUES_PER_CLIENT_PER_MINUTE), a problem with `Retry-After`.',
    body: tokenRequestSchema.extend({ grant_type: z.literal('client_credentials') }),
    bodyTypes: ['application/json', 'application/x-www-form-urlencoded'],
    problems: {
      413: `Body over ${MAX_BODY_BYTES} bytes (problem+json, unlike the OAuth errors)`,
      429: 'Too many token requests from the address, failed secrets for the client from the address, or tokens for the client; `Retry-After` says when to retry',
    },
    otherResponses: {
      400: {
        description: '`invalid_request` or `unsupported_grant_type`',
        contentType: 'application/json',
        schema: oauthError,
      },
      401: {
        description:
          '`invalid_client`; with a `WWW-Authenticate: Basic` challenge only when the request used HTTP Basic (credentials in the body get none, so a browser raises no login dialog)',
        contentType: 'application/json',
        schema: oauthError,
      },
    },
    response: {
      kind: 'raw',
      status: 200,
      contentType: 'application/json',
      description: 'The access token',
      schema: z.object({ access_token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number().int() }),
    },
  },
  {
    method: 'post',
    path: '/stream-tickets',
    tag,
    summary: "A one-use ticket for an event stream (browsers' EventSource cannot send a token)",
    description:
      "The ticket authenticates one GET of that path (`?ticket=`) as the token's principal, within 60 s; the stream's permission is checked at use.",
    body: ticketRequestSchema,
    problems: {
      429: 'STREAM_TICKETS_PER_PRINCIPAL unused tickets of the caller (or STREAM_TICKETS_PER_TENANT of the tenant) exist already; `Retry-After` says when the oldest expires',
    },
    response: {
      kind: 'envelope',
      status: 201,
      etag: false,
      description: 'The ticket',
      data: z.object({ ticket: z.string(), expires_at: instant }),
    },
  },
];
