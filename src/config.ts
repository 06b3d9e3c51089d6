/**
 * Every environment variable the platform reads, parsed once. A bad value stops start-up with one
 * line naming the variable and what is wrong (see `loadConfig`).
 */
import { z } from 'zod';

const optionalUrl = z.url().optional();
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .default('false')
  .transform((value) => ['true', '1', 'yes'].includes(value));

/** AWS's SNS hosts (and the China partition's), HTTPS only: where SNS's certificates and subscriptions live. */
export const DEFAULT_SNS_TRUSTED_URL_PATTERN = '^https://sns\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?/';
/** `scheme://host[:port]` and nothing else: a wildcard or a path would never match a browser's Origin. */
const isExactOrigin = (origin: string) => {
  try {
    return new URL(origin).origin === origin;
  } catch {
    return false;
  }
};
/** A 32-byte key, base64 (`openssl rand -base64 32`). */
const secretsKey = z
  .string()
  .trim()
  .refine(
    (value) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32,
    'must be 32 bytes in base64 (openssl rand -base64 32)',
  )
  .transform((value) => Buffer.from(value, 'base64'));
/**
 * The most live streams (incident or sync) one tenant may be allowed. A stream costs about 32 KiB
 * of V8 heap and 60 KiB of RSS on the instance it is open on (bench/incident-streams.ts: the
 * request, its socket, the SSE channel and its listeners), so 20,000 are about 640 MiB of heap and
 * 1.2 GiB of RSS, a sixth of the default 4 GiB heap, and as many file descriptors. More per tenant
 * would let one tenant's consoles starve the instance; an organisation that needs more runs more
 * instances behind the load balancer (the caps count per instance).
 */
const MAX_STREAMS_PER_TENANT = 20_000;

const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

/** Outbound notifications (src/gateways/notify): unset SMTP or SMS provider means the DATA_DIR/outbox. */
const notificationVariables = {
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  NOTIFY_EMAIL_FROM: z.string().min(3).optional(),
  PAGER_EVENTS_URL: optionalUrl,
  SMS_PROVIDER_URL: optionalUrl,
  SMS_PROVIDER_TOKEN: z.string().min(1).optional(),
  /** Public address of the platform, for links in notifications; default BASE_URL. */
  PUBLIC_URL: optionalUrl,
  /** How long a page's acknowledge/resolve links work (src/action-links). */
  ACTION_LINK_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  /** Requests per minute to the public action-link pages (/a/…) from one source address. */
  ACTION_LINK_REQUESTS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Pings per minute one heartbeat address (/hb/…) takes; beyond, 429 with Retry-After. */
  HEARTBEAT_PINGS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Events per minute one integration routing key takes at /v2/enqueue (PagerDuty's ~120); beyond, 429. */
  INTEGRATION_EVENTS_PER_KEY_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /**
   * The addresses an SNS signing certificate is fetched from and a subscription is confirmed at
   * (a regular expression over the URL). Production: HTTPS on AWS's SNS hosts only; tests point it
   * at a loopback stand-in.
   */
  SNS_TRUSTED_URL_PATTERN: z
    .string()
    .default(DEFAULT_SNS_TRUSTED_URL_PATTERN)
    .refine(
      (pattern) => {
        try {
          new RegExp(pattern);
          return pattern.startsWith('^');
        } catch {
          return false;
        }
      },
      { message: 'must be a regular expression anchored with ^' },
    ),
  /** How often the heartbeat checker looks for heartbeats whose ping is overdue. */
  HEARTBEAT_CHECK_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3_600).default(30),
  /** Shifts the platform's clock (seconds). For drills and restart tests only: never set it in production. */
  CLOCK_OFFSET_SECONDS: z.coerce.number().int().min(-31_536_000).max(31_536_000).default(0),
};

/** Data sync (src/process/sync, src/syncstore): unset SYNC_DATABASE_URL means the embedded PostgreSQL under DATA_DIR. */
const SYNC_JOB_NAMES = ['query_history', 'table_storage', 'cluster_metrics', 'wlm_queue_stats', 'alert_events'];
const syncIntervals = z.string().transform((value, ctx) => {
  const intervals: Record<string, number> = {};
  for (const part of value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const match = /^([a-z_]+)=(\d+)$/.exec(part);
    const seconds = match ? Number(match[2]) : NaN;
    if (!match || !SYNC_JOB_NAMES.includes(match[1]!) || seconds < 60 || seconds > 86_400) {
      ctx.addIssue({
        code: 'custom',
        message: `"${part}": must be job=seconds, a job of ${SYNC_JOB_NAMES.join(', ')}, 60 to 86400 seconds`,
      });
      return z.NEVER;
    }
    intervals[match[1]!] = seconds;
  }
  return intervals;
});
const syncVariables = {
  SYNC_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string')
    .optional(),
  /** Per-job intervals in seconds, e.g. `query_history=300,table_storage=3600`; unnamed jobs keep their default. */
  SYNC_INTERVALS: syncIntervals.optional(),
  SYNC_TIMEZONE: z
    .string()
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone')
    .default('UTC'),
  SYNC_STREAM_PERIOD_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
  /** Open GET /api/v1/sync/stream connections per person (token user id); one more is a 429. */
  SYNC_STREAMS_PER_USER: z.coerce.number().int().min(1).max(100).default(5),
  /** Open sync streams per tenant, all its people together (bounded as the incident streams are). */
  SYNC_STREAMS_PER_TENANT: z.coerce.number().int().min(1).max(MAX_STREAMS_PER_TENANT).default(2000),
  /** Turns the scheduler off (manual triggers still run); for tests and one-off instances. */
  SYNC_SCHEDULER: z.enum(['on', 'off']).default('on'),
  /** A run stops (failed, "timed out") after this long; 5 minutes later any instance may take it for dead. */
  SYNC_RUN_TIMEOUT_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  /** Where a fresh embedded PostgreSQL cluster is kept, so a new DATA_DIR skips initdb (the tests set it). */
  SYNC_EMBEDDED_TEMPLATE_DIR: z.string().min(1).optional(),
};

/** Abuse limits (issue 25): per-caller and per-tenant caps on tickets, token requests and live streams. */
const limitVariables = {
  /** Unused stream tickets one caller (token subject) may hold; one more is a 429. */
  STREAM_TICKETS_PER_PRINCIPAL: z.coerce.number().int().min(1).max(1000).default(20),
  /** Unused stream tickets one tenant may hold, all its callers together. */
  STREAM_TICKETS_PER_TENANT: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** POST /oauth/token requests per minute from one source address (X-Forwarded-For only from a private peer). */
  TOKEN_REQUESTS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  /** Wrong client secrets per minute for one client id from one address; then 429 until the minute is over. */
  TOKEN_FAILURES_PER_CLIENT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
  /** Tokens issued per minute to one client id, all addresses together. */
  TOKEN_ISSUES_PER_CLIENT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  /** The whole request (headers and body) must arrive within this long; then 408 and the connection closes. */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** On stop, how long idle kept-alive connections stay open, every request on them answered 503 + Connection: close. */
  SHUTDOWN_IDLE_GRACE_SECONDS: z.coerce.number().min(0).max(5).default(2),
  /** Open GET /api/v1/incidents/stream connections per person (token user id): a few console tabs; one more is a 429. */
  INCIDENT_STREAMS_PER_USER: z.coerce.number().int().min(1).max(100).default(5),
  /**
   * Open incident streams per tenant, all its people together; one more is a 429. The bound keeps
   * one tenant's streams within memory: MAX_STREAMS_PER_TENANT says why.
   */
  INCIDENT_STREAMS_PER_TENANT: z.coerce.number().int().min(1).max(MAX_STREAMS_PER_TENANT).default(2000),
  /** Heavy read requests (escalation previews, rule backtests, analytics) one tenant runs at once; one more is a 429. */
  HEAVY_REQUESTS_PER_TENANT: z.coerce.number().int().min(1).max(100).default(2),
  /** Heavy read requests running at once on the instance, all tenants together; one more is a 429. */
  HEAVY_REQUESTS_TOTAL: z.coerce.number().int().min(1).max(1000).default(4),
  /** The most work units one escalation preview may cost (docs/escalation.md); more is a 422. */
  ESCALATION_PREVIEW_WORK_UNITS: z.coerce.number().int().min(1).max(1_000_000_000).default(5_000_000),
};

/**
 * Cluster membership (src/cluster): with EVENTSTORE_URL and MONGODB_URL several instances share the
 * work; each holds a lease in MongoDB that it renews every CLUSTER_RENEW_SECONDS. A member that stops
 * renewing is counted out CLUSTER_LEASE_SECONDS after its last renewal. The renewal period must be
 * under half the lease, so that every member is read at least once more before its previous lease
 * lapses (one failed renewal loses nothing, and a graceful leave is told from a lapse).
 */
const clusterVariables = {
  CLUSTER_LEASE_SECONDS: z.coerce.number().int().min(3).max(300).default(10),
  CLUSTER_RENEW_SECONDS: z.coerce.number().int().min(1).max(149).default(3),
  /** A member that cannot read the log or its read store (or append) this long gives its lease up. */
  MEMBER_UNHEALTHY_LEASE_RELEASE_SECONDS: z.coerce.number().int().min(2).max(300).default(5),
  /** A member whose evaluator tick or escalation work has run this long without ending gives its lease up. */
  MEMBER_STUCK_LOOP_SECONDS: z.coerce.number().int().min(5).max(3600).default(120),
};

/**
 * The analytics assistant (src/assistant): the model provider, and where its cost and document
 * tools read. Without ANTHROPIC_API_KEY the assistant answers 503 "assistant not configured";
 * without COST_ATHENA_DATABASE the cost tools read the embedded bill, without MILVUS_ADDRESS the
 * runbooks live in an in-process index, without EMBEDDINGS_URL embeddings are computed locally.
 */
const assistantVariables = {
  /** A secret: never logged, never in an answer. */
  ANTHROPIC_API_KEY: z.string().trim().min(1).optional(),
  /** A gateway (or proxy) speaking the Messages API instead of api.anthropic.com. */
  ANTHROPIC_BASE_URL: optionalUrl,
  /**
   * The Messages API version requested. 2023-06-01 (default) takes a temperature; 2026-10-21 and
   * later refuse one, so then none is sent (src/gateways/model/api-version.ts).
   */
  ANTHROPIC_API_VERSION: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'an API version date such as 2023-06-01')
    .default('2023-06-01'),
  ASSISTANT_MODEL: z.string().trim().min(1).default('claude-sonnet-4-6'),
  /** 0 to 1, or `omit` for models that refuse any temperature but their own. */
  ASSISTANT_TEMPERATURE: z
    .union([z.literal('omit'), z.coerce.number().min(0).max(1)])
    .default(0)
    .transform((value) => (value === 'omit' ? null : value)),
  ASSISTANT_MAX_TOKENS: z.coerce.number().int().min(256).max(64_000).default(4096),
  ASSISTANT_MAX_ROUNDS: z.coerce.number().int().min(1).max(8).default(8),
  ASSISTANT_TOOL_TIMEOUT_MS: z.coerce.number().int().min(50).max(300_000).default(15_000),
  ASSISTANT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  COST_ATHENA_DATABASE: z.string().trim().min(1).optional(),
  COST_ATHENA_TABLE: z.string().trim().min(1).optional(),
  COST_ATHENA_WORKGROUP: z.string().trim().min(1).default('primary'),
  COST_ATHENA_OUTPUT_LOCATION: z
    .string()
    .regex(/^s3:\/\/[^/]+/, 'must be an s3:// URL')
    .optional(),
  /** The CUR column holding the environment tag (the environment id of the token). */
  COST_ATHENA_ENVIRONMENT_COLUMN: z.string().trim().min(1).optional(),
  /** The CUR 2.0 `resource_tags` key of the environment tag (default: the column without `resource_tags_`). */
  COST_ATHENA_ENVIRONMENT_TAG: z.string().trim().min(1).optional(),
  /** Which CUR the table is: 1 (legacy CUR), 2 (CUR 2.0, Data Exports) or auto (read from its columns once). */
  COST_CUR_VERSION: z
    .enum(['auto', '1', '2'])
    .default('auto')
    .transform((value) => (value === 'auto' ? value : (Number(value) as 1 | 2))),
  /** The report's refresh-status table; `none`: there is none (answers then carry no refresh warning). */
  COST_ATHENA_STATUS_TABLE: z.string().trim().default('cost_and_usage_data_status'),
  AWS_REGION: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'expected an AWS region such as eu-west-1')
    .optional(),
  MILVUS_ADDRESS: z.string().trim().min(1).optional(),
  MILVUS_TOKEN: z.string().min(1).optional(),
  MILVUS_COLLECTION: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,254}$/, 'letters, digits and _ only')
    .default('runbooks'),
  /** An OpenAI-compatible embeddings endpoint (POST {url}/embeddings); all of URL, MODEL and DIM, or none. */
  EMBEDDINGS_URL: optionalUrl,
  EMBEDDINGS_MODEL: z.string().trim().min(1).optional(),
  EMBEDDINGS_DIM: z.coerce.number().int().min(8).max(32_768).optional(),
  EMBEDDINGS_API_KEY: z.string().min(1).optional(),
};

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Loopback by default: `npm start` prints the development client's owner secret. */
  HOST: z.string().min(1).default('127.0.0.1'),
  BASE_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: logLevel,
  AUTH_JWKS_URI: optionalUrl,
  AUTH_ISSUER: z.string().min(1).optional(),
  /**
   * Both or neither: the built-in identity provider's signing key (PKCS#8 PEM) and development
   * client (JSON) in shared files instead of DATA_DIR, so every instance of a cluster signs and
   * accepts the same tokens. Read only, never created (`npm run identity:init` makes them).
   */
  IDP_SIGNING_KEY_FILE: z.string().min(1).optional(),
  DEV_CLIENT_FILE: z.string().min(1).optional(),
  EVENTSTORE_URL: z
    .string()
    .regex(/^(esdb|esdb\+discover|kurrentdb):\/\//, 'must be an esdb:// connection string')
    .optional(),
  MONGODB_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// connection string')
    .optional(),
  MONGODB_DATABASE: z.string().min(1).default('warehouse_watch'),
  OUTBOUND_ALLOW_PRIVATE_NETWORKS: booleanFlag,
  /** How long a command waits for projections before answering anyway (read-your-writes bound). */
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  /** How long a command without If-Match retries appends other writers beat; then 503 + Retry-After (never 409). */
  COMMAND_CONFLICT_BUDGET_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** /health answers 503 while a read model is more than this many events behind the log's head. */
  HEALTH_MAX_PROJECTION_LAG: z.coerce.number().int().min(1).default(1000),
  /** Hours between background scrubs of the log's (and read models') pages and chains; the first runs at start-up; 0: none. */
  SCRUB_INTERVAL_HOURS: z.coerce.number().min(0).max(8_760).default(24),
  /** JSON file mapping env_id → Redshift target; unset: every environment is a simulated cluster. */
  WAREHOUSE_ENVIRONMENTS: z.string().min(1).optional(),
  ALERT_EVALUATION_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** The escalation policy (by id; its tenant holds the incidents) the platform's own failures page. */
  PLATFORM_ALERTS_POLICY_ID: z.uuid('must be an escalation policy id (a UUID)').optional(),
  /** A projection with events to apply that has not moved for this long is stuck (a platform incident). */
  PLATFORM_PROJECTION_STUCK_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** Heartbeat comment period on server-sent event streams. */
  SSE_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(15),
  /** Browser origins allowed by CORS: comma-separated exact origins (`https://app.example.com`); none by default. */
  CORS_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter((origin) => origin !== ''),
    )
    .refine(
      (origins) => origins.every(isExactOrigin),
      'must be comma-separated origins like https://app.example.com (no *, no path)',
    )
    .default([]),
  /** Identity provider management API (Auth0-style) for invitations; all three or none. */
  IDP_MANAGEMENT_URL: optionalUrl,
  IDP_CLIENT_ID: z.string().min(1).optional(),
  IDP_CLIENT_SECRET: z.string().min(1).optional(),
  /** The Management API's identifier; default IDP_MANAGEMENT_URL + /api/v2/. A custom domain keeps the tenant's own. */
  IDP_MANAGEMENT_AUDIENCE: z
    .url()
    .regex(
      /\/api\/v2\/$/,
      'must be the Management API identifier, https://{tenant}.auth0.com/api/v2/ (with the final slash)',
    )
    .optional(),
  /** The database connection invited users are created in; default Username-Password-Authentication. */
  IDP_CONNECTION: z.string().min(1).optional(),
  /** The application invitees sign in to: its client_id goes on the password-change ticket. */
  IDP_APPLICATION_CLIENT_ID: z.string().min(1).optional(),
  ...notificationVariables,
  ...syncVariables,
  ...assistantVariables,
  ...limitVariables,
  ...clusterVariables,
  /** Seals channel secrets in the event log; unset: DATA_DIR/secrets.key (made on first start). */
  SECRETS_KEY: secretsKey.optional(),
  /** Comma-separated older keys, still accepted for reading what they sealed. */
  SECRETS_KEY_PREVIOUS: z
    .string()
    .transform((value) => value.split(',').filter((key) => key.trim() !== ''))
    .pipe(z.array(secretsKey))
    .optional(),
});

export type Config = ReturnType<typeof toConfig>;

function toConfig(env: z.infer<typeof environmentSchema>) {
  const baseUrl = (env.BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  return {
    port: env.PORT,
    host: env.HOST,
    baseUrl,
    dataDir: env.DATA_DIR,
    logLevel: env.LOG_LEVEL,
    auth: env.AUTH_JWKS_URI
      ? { mode: 'external' as const, jwksUri: env.AUTH_JWKS_URI, issuer: env.AUTH_ISSUER ?? '' }
      : { mode: 'embedded' as const, issuer: env.AUTH_ISSUER ?? baseUrl },
    /** The built-in identity provider's shared key and client files; unset: both in DATA_DIR. */
    sharedIdentity:
      env.IDP_SIGNING_KEY_FILE && env.DEV_CLIENT_FILE
        ? { signingKeyFile: env.IDP_SIGNING_KEY_FILE, devClientFile: env.DEV_CLIENT_FILE }
        : undefined,
    eventStoreUrl: env.EVENTSTORE_URL,
    mongodb: env.MONGODB_URL ? { url: env.MONGODB_URL, database: env.MONGODB_DATABASE } : undefined,
    outboundAllowPrivateNetworks: env.OUTBOUND_ALLOW_PRIVATE_NETWORKS,
    readYourWritesTimeoutMs: env.READ_YOUR_WRITES_TIMEOUT_MS,
    commandConflictBudgetMs: env.COMMAND_CONFLICT_BUDGET_MS,
    healthMaxProjectionLag: env.HEALTH_MAX_PROJECTION_LAG,
    scrubIntervalHours: env.SCRUB_INTERVAL_HOURS,
    warehouseEnvironmentsFile: env.WAREHOUSE_ENVIRONMENTS,
    alertEvaluationIntervalSeconds: env.ALERT_EVALUATION_INTERVAL_SECONDS,
    platformWatch: {
      alertsPolicyId: env.PLATFORM_ALERTS_POLICY_ID,
      projectionStuckMs: env.PLATFORM_PROJECTION_STUCK_SECONDS * 1000,
    },
    sseHeartbeatMs: env.SSE_HEARTBEAT_SECONDS * 1000,
    corsOrigins: env.CORS_ORIGINS,
    /** Keys sealing secrets at rest; without `key`, DATA_DIR/secrets.key. */
    secrets: { key: env.SECRETS_KEY, previousKeys: env.SECRETS_KEY_PREVIOUS ?? [] },
    /** Unset: invitations are written to DATA_DIR/outbox. */
    clockOffsetMs: env.CLOCK_OFFSET_SECONDS * 1000,
    notify: {
      smtpUrl: env.SMTP_URL,
      emailFrom: env.NOTIFY_EMAIL_FROM ?? `warehouse-watch <alerts@${new URL(baseUrl).hostname}>`,
      pagerEventsUrl: env.PAGER_EVENTS_URL,
      smsProviderUrl: env.SMS_PROVIDER_URL,
      smsProviderToken: env.SMS_PROVIDER_TOKEN,
      publicUrl: (env.PUBLIC_URL ?? baseUrl).replace(/\/$/, ''),
    },
    actionLinks: {
      ttlMs: env.ACTION_LINK_TTL_HOURS * 3_600_000,
      requestsPerAddressPerMinute: env.ACTION_LINK_REQUESTS_PER_ADDRESS_PER_MINUTE,
    },
    integrations: {
      eventsPerKeyPerMinute: env.INTEGRATION_EVENTS_PER_KEY_PER_MINUTE,
      snsTrustedUrlPattern: new RegExp(env.SNS_TRUSTED_URL_PATTERN),
    },
    heartbeats: {
      pingsPerAddressPerMinute: env.HEARTBEAT_PINGS_PER_ADDRESS_PER_MINUTE,
      checkIntervalSeconds: env.HEARTBEAT_CHECK_INTERVAL_SECONDS,
    },
    sync: {
      databaseUrl: env.SYNC_DATABASE_URL,
      intervals: env.SYNC_INTERVALS ?? {},
      timeZone: env.SYNC_TIMEZONE,
      streamPeriodMs: env.SYNC_STREAM_PERIOD_SECONDS * 1000,
      streams: { perPerson: env.SYNC_STREAMS_PER_USER, perTenant: env.SYNC_STREAMS_PER_TENANT },
      scheduler: env.SYNC_SCHEDULER === 'on',
      runTimeoutMs: env.SYNC_RUN_TIMEOUT_SECONDS * 1000,
      embeddedTemplateDir: env.SYNC_EMBEDDED_TEMPLATE_DIR,
    },
    assistant: assistantConfig(env),
    cluster: { leaseMs: env.CLUSTER_LEASE_SECONDS * 1000, renewEveryMs: env.CLUSTER_RENEW_SECONDS * 1000 },
    memberHealth: {
      unreachableMs: env.MEMBER_UNHEALTHY_LEASE_RELEASE_SECONDS * 1000,
      stuckLoopMs: env.MEMBER_STUCK_LOOP_SECONDS * 1000,
    },
    limits: {
      streamTicketsPerPrincipal: env.STREAM_TICKETS_PER_PRINCIPAL,
      streamTicketsPerTenant: env.STREAM_TICKETS_PER_TENANT,
      tokenRequests: {
        perAddressPerMinute: env.TOKEN_REQUESTS_PER_ADDRESS_PER_MINUTE,
        failuresPerClientPerMinute: env.TOKEN_FAILURES_PER_CLIENT_PER_MINUTE,
        issuesPerClientPerMinute: env.TOKEN_ISSUES_PER_CLIENT_PER_MINUTE,
      },
      incidentStreams: { perPerson: env.INCIDENT_STREAMS_PER_USER, perTenant: env.INCIDENT_STREAMS_PER_TENANT },
      heavyRequests: { perTenant: env.HEAVY_REQUESTS_PER_TENANT, total: env.HEAVY_REQUESTS_TOTAL },
      escalationPreviewWorkUnits: env.ESCALATION_PREVIEW_WORK_UNITS,
      requestTimeoutMs: env.REQUEST_TIMEOUT_SECONDS * 1000,
      shutdownIdleGraceMs: env.SHUTDOWN_IDLE_GRACE_SECONDS * 1000,
    },
    identityProvider:
      env.IDP_MANAGEMENT_URL && env.IDP_CLIENT_ID && env.IDP_CLIENT_SECRET
        ? {
            managementUrl: env.IDP_MANAGEMENT_URL,
            clientId: env.IDP_CLIENT_ID,
            clientSecret: env.IDP_CLIENT_SECRET,
            audience: env.IDP_MANAGEMENT_AUDIENCE ?? `${env.IDP_MANAGEMENT_URL.replace(/\/$/, '')}/api/v2/`,
            connection: env.IDP_CONNECTION ?? 'Username-Password-Authentication',
            ...(env.IDP_APPLICATION_CLIENT_ID ? { applicationClientId: env.IDP_APPLICATION_CLIENT_ID } : {}),
          }
        : undefined,
  };
}

function assistantConfig(env: z.infer<typeof environmentSchema>) {
  return {
    /** Unset: /ask answers 503 "assistant not configured" (the rest of the platform runs). */
    anthropic: env.ANTHROPIC_API_KEY ? { apiKey: env.ANTHROPIC_API_KEY, baseUrl: env.ANTHROPIC_BASE_URL } : undefined,
    apiVersion: env.ANTHROPIC_API_VERSION,
    model: env.ASSISTANT_MODEL,
    temperature: env.ASSISTANT_TEMPERATURE,
    maxTokens: env.ASSISTANT_MAX_TOKENS,
    maxRounds: env.ASSISTANT_MAX_ROUNDS,
    toolTimeoutMs: env.ASSISTANT_TOOL_TIMEOUT_MS,
    answerTimeoutMs: env.ASSISTANT_TIMEOUT_MS,
    /** Unset: the embedded cost store (a generated bill per environment). */
    athena:
      env.COST_ATHENA_DATABASE && env.COST_ATHENA_TABLE && env.COST_ATHENA_OUTPUT_LOCATION && env.AWS_REGION
        ? {
            region: env.AWS_REGION,
            database: env.COST_ATHENA_DATABASE,
            table: env.COST_ATHENA_TABLE,
            workGroup: env.COST_ATHENA_WORKGROUP,
            outputLocation: env.COST_ATHENA_OUTPUT_LOCATION,
            environmentColumn: env.COST_ATHENA_ENVIRONMENT_COLUMN,
            environmentTag: env.COST_ATHENA_ENVIRONMENT_TAG,
            curVersion: env.COST_CUR_VERSION,
            statusTable: env.COST_ATHENA_STATUS_TABLE === 'none' ? null : env.COST_ATHENA_STATUS_TABLE,
          }
        : undefined,
    /** Unset: the in-process vector index. */
    milvus: env.MILVUS_ADDRESS
      ? { address: env.MILVUS_ADDRESS, token: env.MILVUS_TOKEN, collection: env.MILVUS_COLLECTION }
      : undefined,
    /** Unset: the deterministic local embedding. */
    embeddings:
      env.EMBEDDINGS_URL && env.EMBEDDINGS_MODEL && env.EMBEDDINGS_DIM
        ? {
            url: env.EMBEDDINGS_URL,
            model: env.EMBEDDINGS_MODEL,
            dim: env.EMBEDDINGS_DIM,
            apiKey: env.EMBEDDINGS_API_KEY,
          }
        : undefined,
  };
}

/** Variables that only make sense together: naming some but not all is a configuration error. */
const ALL_OR_NONE: { when: string; names: readonly string[] }[] = [
  {
    when: 'COST_ATHENA_DATABASE',
    names: ['COST_ATHENA_DATABASE', 'COST_ATHENA_TABLE', 'COST_ATHENA_OUTPUT_LOCATION', 'AWS_REGION'],
  },
  { when: 'EMBEDDINGS_URL', names: ['EMBEDDINGS_URL', 'EMBEDDINGS_MODEL', 'EMBEDDINGS_DIM'] },
  // One shared without the other: tokens verify everywhere but the client is known to one instance.
  { when: 'IDP_SIGNING_KEY_FILE', names: ['IDP_SIGNING_KEY_FILE', 'DEV_CLIENT_FILE'] },
  { when: 'DEV_CLIENT_FILE', names: ['IDP_SIGNING_KEY_FILE', 'DEV_CLIENT_FILE'] },
];

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Parses the environment; throws a ConfigError whose message is one line per bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = environmentSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${lines.join('; ')}`);
  }
  if (parsed.data.AUTH_JWKS_URI && !parsed.data.AUTH_ISSUER) {
    throw new ConfigError('invalid configuration: AUTH_ISSUER: required when AUTH_JWKS_URI is set');
  }
  const identityFiles = (['IDP_SIGNING_KEY_FILE', 'DEV_CLIENT_FILE'] as const).filter(
    (name) => parsed.data[name] !== undefined,
  );
  if (parsed.data.AUTH_JWKS_URI && identityFiles.length > 0) {
    throw new ConfigError(
      `invalid configuration: ${identityFiles.join(', ')}: only for the built-in identity provider (AUTH_JWKS_URI is set)`,
    );
  }
  const idp = ['IDP_MANAGEMENT_URL', 'IDP_CLIENT_ID', 'IDP_CLIENT_SECRET'] as const;
  const idpMissing = idp.filter((name) => !parsed.data[name]);
  if (idpMissing.length > 0 && idpMissing.length < idp.length) {
    throw new ConfigError(
      `invalid configuration: ${idpMissing.join(', ')}: required when any of ${idp.join(', ')} is set`,
    );
  }
  const idpExtra = (['IDP_MANAGEMENT_AUDIENCE', 'IDP_CONNECTION', 'IDP_APPLICATION_CLIENT_ID'] as const).find(
    (name) => parsed.data[name] !== undefined,
  );
  if (idpExtra && idpMissing.length > 0) {
    throw new ConfigError(`invalid configuration: ${idpMissing.join(', ')}: required when ${idpExtra} is set`);
  }
  const { CLUSTER_LEASE_SECONDS: lease, CLUSTER_RENEW_SECONDS: renew } = parsed.data;
  if (renew * 2 >= lease) {
    throw new ConfigError(
      `invalid configuration: CLUSTER_RENEW_SECONDS: must be less than half of CLUSTER_LEASE_SECONDS (${lease}), got ${renew}`,
    );
  }
  const data = parsed.data as Record<string, unknown>;
  for (const group of ALL_OR_NONE) {
    const missing = group.names.filter((name) => data[name] === undefined);
    if (data[group.when] !== undefined && missing.length > 0) {
      throw new ConfigError(`invalid configuration: ${missing.join(', ')}: required when ${group.when} is set`);
    }
  }
  return toConfig(parsed.data);
}
