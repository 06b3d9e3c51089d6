/**
 * The composition root: config → adapters → app → workers. The only module that knows every
 * adapter; everything else receives its ports. `main.ts` and the tests both start the platform
 * through `startPlatform`.
 */
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { composeAlerting } from './composition/alerting.js';
import { composeCluster } from './composition/cluster.js';
import type { PlatformArea } from './composition/area.js';
import { composeIam } from './composition/iam.js';
import { composeNotifications } from './composition/notifications.js';
import { composeSchedules } from './composition/schedules.js';
import { composeSync } from './composition/sync.js';
import { composeEscalation } from './composition/escalation.js';
import { composeActionLinks } from './composition/action-links.js';
import type { EscalationManager } from './process/escalation/escalation-manager.js';
import type { NotifyPort } from './gateways/notify/port.js';
import type { SchedulerLike } from 'rxjs';
import { composeWarehouse } from './composition/warehouse.js';
import { composeBacktest } from './composition/backtest.js';
import { composeAnalytics } from './composition/analytics.js';
import { createHeavyRequestSlots } from './http/heavy-request-slots.js';
import { composeAssistant } from './composition/assistant.js';
import type { Evaluator } from './process/evaluator.js';
import { authenticate } from './auth/authenticate.js';
import { embeddedIdpRoutes, type ClientRegistration } from './auth/embedded-idp.js';
import { loadEmbeddedIdentity } from './auth/identity-files.js';
import { createTokenRequestLimits } from './auth/token-request-limits.js';
import { iamChangeStamps, reportingIamCommits } from './auth/iam-change-stamps.js';
import type { Config } from './config.js';
import { instrumentedEventStore } from './eventstore/instrumented.js';
import { trackingAppendRefusals } from './eventstore/append-refusals.js';
import { detectingLogDamage } from './eventstore/damage-detector.js';
import { DAMAGED_FILE_RECOVERY, EVENT_LOG_RECOVERY, namingDamage } from './sqlite/damaged-file.js';
import { projectionsHealthCheck } from './projection-runner/projection-health.js';
import { validatingEventStore } from './eventstore/validating.js';
import { encryptingEventStore } from './eventstore/encrypting.js';
import { channelEventSecrets } from './events/channel-secrets.js';
import { loadSecretBox } from './secrets/key-file.js';
import type { SecretBox } from './secrets/secret-box.js';
import type { EventStore } from './eventstore/port.js';
import { reportLogTail } from './eventstore/verify-tail.js';
import { openSqliteEventStore } from './eventstore/sqlite.js';
import { API_PREFIX, createApp } from './http/app.js';
import { answerClientErrorsAsProblems } from './http/client-errors.js';
import { readAtPosition } from './http/read-position.js';
import { bearerOrStreamTicket, streamTicketRoutes } from './http/stream-tickets.js';
import { openSharedState } from './composition/shared-state.js';
import { INCIDENT_STREAM_PATH } from '../queries/incident-stream.js';
import { SYNC_STREAM_PATH } from '../queries/sync-stream.js';
import { operationalRoutes } from './http/public-routes.js';
import { dashboardBundle } from './dashboard/bundle.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { platformApiDocument } from './openapi/platform-document.js';
import { apiReferenceRoutes } from './openapi/reference-routes.js';
import type Router from '@koa/router';
import { ensurePrivateDirectory } from './eventstore/private-files.js';
import { createLogger } from './logger.js';
import { createPlatformMetrics } from './metrics.js';
import { createProjectionRunner, type ProjectionRunner } from './projection-runner/runner.js';
import { projectionThread } from './composition/projection-thread.js';
import type { ReadStore } from './readstore/port.js';
import { openSqliteReadStore } from './readstore/sqlite.js';

/** Every read model of the platform (also what `npm run rebuild` rebuilds); secrets seal channel docs. */
export { projectionsOf } from './composition/read-models.js';

/**
 * EventStoreDB when EVENTSTORE_URL is set, MongoDB when MONGODB_URL is set; SQLite files in DATA_DIR
 * otherwise. The event store seals channel secrets (src/eventstore/encrypting.ts).
 */
export async function openStores(config: Config): Promise<{ eventStore: EventStore; readStore: ReadStore; secrets: SecretBox }> {
  ensurePrivateDirectory(config.dataDir);
  // The production adapters' clients (gRPC, the MongoDB driver) are loaded only when configured:
  // importing them costs every embedded start (and every test that starts the platform) seconds.
  const logStore = config.eventStoreUrl
    ? (await import('./eventstore/eventstoredb.js')).createEventStoreDbStore(config.eventStoreUrl)
    : namingDamage(join(config.dataDir, 'events.db'), EVENT_LOG_RECOVERY, () => openSqliteEventStore({ filename: join(config.dataDir, 'events.db') }));
  // Channel secrets are sealed in the log; everything above this line sees them plain (rebuilds too).
  const secrets = loadSecretBox(config.secrets, join(config.dataDir, 'secrets.key'));
  const eventStore = encryptingEventStore(logStore, secrets, channelEventSecrets);
  const readStore = config.mongodb
    ? await (await import('./readstore/mongodb.js')).openMongoReadStore(config.mongodb.url, { dbName: config.mongodb.database })
    : openSqliteReadStore(join(config.dataDir, 'read-models.db'));
  return { eventStore, readStore, secrets };
}

/** Both stores are the SQLite files in DATA_DIR (what openStores opens when neither URL is set). */
const embeddedStores = (config: Config) => !config.eventStoreUrl && !config.mongodb;

/** How long in-flight requests may take to finish on stop before their connections are cut. */
export const SHUTDOWN_DRAIN_MS = 5_000;

/**
 * Stops accepting connections and lets in-flight requests finish: idle keep-alive connections are
 * closed at once and again as requests complete; whatever is still busy after `ms` is cut.
 */
async function drain(server: Server, ms: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const reapIdle = setInterval(() => server.closeIdleConnections(), 50);
  let deadline: NodeJS.Timeout | undefined;
  const cut = new Promise<void>((resolve) => (deadline = setTimeout(resolve, ms)));
  await Promise.race([closed, cut]);
  clearInterval(reapIdle);
  clearTimeout(deadline);
  server.closeAllConnections();
  await closed;
}

export interface RunningPlatform {
  url: string;
  server: Server;
  devClient?: ClientRegistration;
  eventStore: EventStore;
  readStore: ReadStore;
  runner: ProjectionRunner;
  routers: ReturnType<typeof createApp>['routers'];
  /** The routers served without a token (health, metrics, identity provider, API document). */
  publicRouters: Router[];
  evaluator: Evaluator;
  /** The metric registry the evaluator reads (simulator pins included). */
  metrics: import('./gateways/warehouse/metrics/registry.js').MetricRegistry;
  escalation: EscalationManager;
  notify: NotifyPort;
  /** A second evaluator over the same stores (tests of concurrent instances). */
  newEvaluator(): Evaluator;
  liveListeners(): number;
  /** The relational store sync jobs write to, and the open sync stream feeds (tests). */
  syncStore: import('./syncstore/store.js').SyncStore;
  syncFeeds(): { listeners: number; computations: number }[];
  stop(): Promise<void>;
}

export interface PlatformOptions {
  /** The clock of commands, the evaluator and the warehouse (tests drive it; default: real time). */
  now?: () => Date;
  /** The escalation manager's timers (tests drive them in virtual time; default: real timers). */
  scheduler?: SchedulerLike;
  /** Tests: deliveries go to this port instead of the real adapters. */
  notify?: NotifyPort;
  /** The sync scheduler's timers (tests drive them in virtual time; default: real timers). */
  syncTimers?: import('./process/sync/sync-scheduler.js').Timers;
}

export async function startPlatform(config: Config, options: PlatformOptions = {}): Promise<RunningPlatform> {
  const logger = createLogger(config.logLevel);
  const metrics = createPlatformMetrics();
  const embedded = config.auth.mode === 'embedded';
  // DATA_DIR's own key and client, or the files every instance of a cluster shares (src/auth/identity-files.ts);
  // read before the stores open, so a missing shared file stops start-up with nothing left open.
  ensurePrivateDirectory(config.dataDir);
  const identity = embedded ? loadEmbeddedIdentity(config.dataDir, config.sharedIdentity, (message) => logger.warn(message)) : undefined;
  const stores = await openStores(config);
  const logDamage = detectingLogDamage(instrumentedEventStore(stores.eventStore, metrics));
  const appends = trackingAppendRefusals(logDamage.store);
  const eventStore = validatingEventStore(appends.store);
  const { readStore } = stores;
  const now = options.now ?? (() => new Date());

  // The runner is made once every area has said which projections it needs; commands run only after that.
  const commandDeps = {
    eventStore,
    now,
    waitForProjections: (position: bigint) => runner.waitFor(position, config.readYourWritesTimeoutMs),
  };
  // The newest events of the embedded log against their stream chains (a break is logged; src/eventstore/verify-tail.ts).
  if (!config.eventStoreUrl) await reportLogTail(join(config.dataDir, 'events.db'), logger);
  let listeningUrl = '';
  const key = identity?.key;
  const devClient = identity?.devClient;
  const publicRoutes = [
    operationalRoutes({
      registry: metrics.registry,
      beforeMetrics: async () => {
        for (const status of runner.status()) metrics.projectionLag.set({ projection: status.name }, status.lag);
        cluster.reportOwned('sync_jobs', sync.ownedJobs());
        cluster.reportOwned('incidents', await escalation.ownedActiveIncidents().catch(() => 0));
      },
      checks: {
        event_store: async () => {
          // Damage first: it is the cause when appends are refused because of it, and only a restore mends it.
          const damage = logDamage.damage();
          if (damage) throw new Error(`events.db is damaged (first met ${damage.since.toISOString()}: ${damage.error}); ${EVENT_LOG_RECOVERY}`);
          const refusal = appends.refusal();
          if (refusal) throw new Error(`refusing appends since ${refusal.since.toISOString()} (${refusal.refused} refused; the last: ${refusal.error})`);
          await eventStore.ping();
        },
        read_store: async () => readStore.ping(),
        projections: projectionsHealthCheck({
          status: () => runner.status(), headPosition: () => eventStore.headPosition(), readAll: (options) => eventStore.readAll(options), maxLag: config.healthMaxProjectionLag,
        }),
        warehouse: async () => ({ ...(await warehouse.check()) }),
        relational_store: async () => sync.check(),
        assistant: async () => assistant.healthCheck(),
      },
      extra: () => ({
        projections: runner.status().map((s) => ({ name: s.name, position: String(s.position), lag: s.lag, ...(s.failing ? { failing: s.failing } : {}) })),
      }),
    }),
  ];
  // The web dashboard: static, no token (its API calls carry one).
  publicRoutes.push(dashboardRoutes({ bundle: dashboardBundle(), logger, settings: { audience: config.baseUrl, identityProvider: embedded ? 'embedded' : 'external' } }));
  if (key && devClient) {
    publicRoutes.push(embeddedIdpRoutes({ key, issuer: config.auth.issuer, audience: config.baseUrl, clients: () => [devClient], limits: createTokenRequestLimits(config.limits.tokenRequests) }));
  }
  // Built on first request from the routers as served (they exist once createApp has run).
  let apiDocument: unknown;
  publicRoutes.push(apiReferenceRoutes({ document: () => (apiDocument ??= platformApiDocument({ public: publicRoutes, api: routers }, embedded, config.baseUrl).document) }));

  const iamStamps = iamChangeStamps();
  // Stream tickets and the simulator's state: shared by every instance when MONGODB_URL is set.
  const shared = await openSharedState(config, now);
  const cluster = composeCluster({ config, db: shared.db, now, logger, registry: metrics.registry });
  const { membership } = cluster;
  const warehouse = await composeWarehouse(config, now, { simulatorState: shared.simulatorState, logger });
  const alerting = composeAlerting({
    config, commandDeps, readStore, metrics: warehouse.metrics, clusterIds: warehouse.clusterIds, logger, registry: metrics.registry,
    membership, onOwnedRules: (count) => cluster.reportOwned('rules', count),
  });
  const schedules = composeSchedules({ commandDeps, reader: readStore });
  // Previews, backtests and analytics share one cap per tenant and one across tenants.
  const heavySlots = createHeavyRequestSlots(config.limits.heavyRequests);
  const iam = composeIam({ ...commandDeps, config, reader: readStore, stamps: iamStamps, logger });
  // A link's recipient is judged by the API's own permission resolver.
  const actionLinks = composeActionLinks({ config, commandDeps, permissions: iam.permissions, reader: readStore });
  publicRoutes.push(actionLinks.publicRoutes(alerting.onIncidentResolved));
  const escalation = composeEscalation({
    config, eventStore, reader: readStore, logger, registry: metrics.registry, now, scheduler: options.scheduler, notify: options.notify, secrets: stores.secrets,
    actionLinks: actionLinks.issuer,
    waitForProjections: (position) => runner.waitFor(position, 60_000),
    membership,
    heavySlots,
  });

  const notifications = composeNotifications({ commandDeps, reader: readStore, secrets: stores.secrets, notify: escalation.notify, publicUrl: config.notify.publicUrl });
  const sync = composeSync({ config, commandDeps, reader: readStore, warehouse: warehouse.gateway, logger, registry: metrics.registry, timers: options.syncTimers, membership });
  const assistant = await composeAssistant({ config, warehouse: { gateway: warehouse.gateway, mode: warehouse.mode }, logger, now });
  // Before alerting: POST /alert-rules/backtest is not a rule id.
  const backtest = composeBacktest({ config, reader: readStore, now, warehouse, syncStore: sync.store, heavySlots });
  const analytics = composeAnalytics({ reader: readStore, now, heavySlots });
  const areas: PlatformArea[] = [notifications, iam, schedules, warehouse, backtest, alerting, escalation, sync, assistant, actionLinks.area, analytics];
  // IAM read-model commits invalidate cached permissions (see src/auth/iam-change-stamps.ts).
  const iamProjectionNames = new Set(iam.projections.map((projection) => projection.name));
  const projections = areas.flatMap((area) => area.projections);
  // Embedded stores: the projections and their read-model writes run on a thread of their own.
  const runner: ProjectionRunner = embeddedStores(config)
    ? projectionThread({
      eventsFile: join(config.dataDir, 'events.db'), readModelsFile: join(config.dataDir, 'read-models.db'),
      secrets: config.secrets, secretsKeyFile: join(config.dataDir, 'secrets.key'),
      projections, iamProjections: iamProjectionNames, stamps: iamStamps, logLevel: config.logLevel, logger,
    })
    : createProjectionRunner({ eventStore, readStore: reportingIamCommits(readStore, iamProjectionNames, iamStamps), projections, logger });
  await runner.start();

  // Browsers' EventSource cannot send a token: the feeds also take a short-lived ticket.
  const streamTickets = shared.tickets;
  const streamFeeds = [`${API_PREFIX}${INCIDENT_STREAM_PATH}`, `${API_PREFIX}${SYNC_STREAM_PATH}`];
  const { app, routers } = createApp({
    corsOrigins: config.corsOrigins,
    logger,
    metrics,
    publicRoutes,
    permissions: iam.permissions,
    // A GET naming a read position waits for it only once authorised: the deactivated-user check
    // here, then the route's guard (src/http/guard.ts), so no unauthorised caller makes us wait.
    afterAuthentication: [...iam.afterAuthentication, readAtPosition({ waitFor: (position) => runner.waitFor(position, config.readYourWritesTimeoutMs) })],
    authenticate: bearerOrStreamTicket(streamTickets, authenticate({
      jwksUri: () => (config.auth.mode === 'external' ? config.auth.jwksUri : `${listeningUrl}/.well-known/jwks.json`),
      issuer: config.auth.issuer,
      audience: config.baseUrl,
      now: () => now().getTime(),
      onRefreshFailed: (error) => logger.warn({ err: error }, 'the identity provider\'s signing keys (JWKS) could not be refreshed; the last set read stays in use'),
    })),
    modules: [
      ...areas.flatMap((area) => area.routes),
      { alias: false, routes: () => streamTicketRoutes({ tickets: streamTickets, feeds: streamFeeds }) },
    ],
  });

  // The whole request (headers and body) must arrive within REQUEST_TIMEOUT_SECONDS, else 408 and
  // the connection closes: a slow client cannot hold a connection by trickling bytes. Node's
  // request timeout ends when the request has arrived, so long responses (SSE) are not cut.
  // Connections are checked often enough that the bound holds within a quarter of it (5 s at most).
  const requestTimeout = config.limits.requestTimeoutMs;
  const server = createServer({ requestTimeout, headersTimeout: requestTimeout, connectionsCheckingInterval: Math.min(5000, Math.max(100, requestTimeout / 4)) }, app.callback());
  answerClientErrorsAsProblems(server);
  server.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  // Idle keep-alive sockets stay open longer than a load balancer's idle timeout (60 s on AWS), so
  // the balancer, not us, closes them; Node's 5 s default also resets a client's next request
  // whenever the event loop was busy for a few seconds (the embedded PostgreSQL's start).
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  listeningUrl = `http://127.0.0.1:${port}`;
  const processes = areas.flatMap((area) => area.processes);
  // Members first: the processes ask it which work is theirs from their first step on.
  await membership.start();
  for (const process of processes) process.start();

  return {
    url: listeningUrl,
    server,
    devClient,
    eventStore,
    readStore,
    runner,
    routers,
    publicRouters: publicRoutes,
    evaluator: alerting.evaluator,
    metrics: warehouse.metrics,
    newEvaluator: alerting.newEvaluator,
    liveListeners: () => alerting.hub.listenerCount(),
    syncStore: sync.store,
    syncFeeds: sync.feeds,
    escalation: escalation.manager,
    notify: escalation.notify,
    async stop() {
      // Processes first: the live feed's stop ends every SSE response.
      for (const process of processes) await process.stop();
      // Leaving hands this instance's work to the others at once, not when its lease lapses.
      await membership.stop();
      await drain(server, SHUTDOWN_DRAIN_MS);
      await runner.stop();
      await eventStore.close();
      await readStore.close();
      await shared.close();
    },
  };
}
