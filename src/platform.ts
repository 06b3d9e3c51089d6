/**
 * The composition root: config → stores → log → projections → areas → HTTP → processes, in the
 * order they start. The only module that knows every adapter; everything else receives its ports.
 * `main.ts` and the tests both start the platform through `startPlatform`; tests reach an area's
 * parts through `composition`, the areas as composed here.
 */
import type Router from '@koa/router';
import { join } from 'node:path';
import type { SchedulerLike } from 'rxjs';
import { INCIDENT_STREAM_PATH } from '../queries/incident-stream.js';
import { SYNC_STREAM_PATH } from '../queries/sync-stream.js';
import { authenticate } from './auth/authenticate.js';
import { embeddedIdpRoutes } from './auth/embedded-idp.js';
import { iamChangeStamps } from './auth/iam-change-stamps.js';
import { docChangeFeed } from './readstore/doc-changes.js';
import { loadEmbeddedIdentity } from './auth/identity-files.js';
import { createTokenRequestLimits } from './auth/token-request-limits.js';
import { composeActionLinks } from './composition/action-links.js';
import { composeAlerting } from './composition/alerting.js';
import { composeAnalytics } from './composition/analytics.js';
import type { PlatformArea } from './composition/area.js';
import { composeAssistant } from './composition/assistant.js';
import { composeBacktest } from './composition/backtest.js';
import { composeCluster } from './composition/cluster.js';
import { composeEscalation } from './composition/escalation.js';
import { composeEventLog } from './composition/event-log.js';
import { listen } from './composition/http-server.js';
import { composeHeartbeats } from './composition/heartbeats.js';
import { composeIntegrations } from './composition/integrations.js';
import { composeIam } from './composition/iam.js';
import { composeLogScrub } from './composition/log-scrub.js';
import { composeNotifications } from './composition/notifications.js';
import { composePlatformWatch } from './composition/platform-watch.js';
import { startProjections } from './composition/projections.js';
import { composeSchedules } from './composition/schedules.js';
import { openSharedState } from './composition/shared-state.js';
import { openStores } from './composition/stores.js';
import { composeSync } from './composition/sync.js';
import { composeWarehouse } from './composition/warehouse.js';
import type { Config } from './config.js';
import { dashboardBundle } from './dashboard/bundle.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { ensurePrivateDirectory } from './eventstore/private-files.js';
import { reportLogTail } from './eventstore/verify-tail.js';
import type { NotifyPort } from './gateways/notify/port.js';
import { API_PREFIX, createApp } from './http/app.js';
import { createHeavyRequestSlots } from './http/heavy-request-slots.js';
import { operationalRoutes } from './http/public-routes.js';
import { readAtPosition } from './http/read-position.js';
import { bearerOrStreamTicket, streamTicketRoutes } from './http/stream-tickets.js';
import { createLogger } from './logger.js';
import { createPlatformMetrics } from './metrics.js';
import { collectGuarded } from './metrics-collect.js';
import { platformApiDocument } from './openapi/platform-document.js';
import { apiReferenceRoutes } from './openapi/reference-routes.js';
import type { Timers } from './process/sync/sync-scheduler.js';
import { platformWatchMetrics } from './process/platform-watch-metrics.js';
import { findEscalationPolicy } from '../queries/escalation-policies.js';
import { projectionsHealthCheck } from './projection-runner/projection-health.js';

/** Every read model of the platform (also what `npm run rebuild` rebuilds); secrets seal channel docs. */
export { projectionsOf } from './composition/read-models.js';
export { openStores } from './composition/stores.js';

export interface PlatformOptions {
  /** The clock of commands, the evaluator and the warehouse (tests drive it; default: real time). */
  now?: () => Date;
  /** The escalation manager's timers (tests drive them in virtual time; default: real timers). */
  scheduler?: SchedulerLike;
  /**
   * The heartbeat checker's timers (default: real timers). Apart from `scheduler`: its checks repeat
   * for ever, so a test flushing a virtual scheduler to the end would never return.
   */
  heartbeatScheduler?: SchedulerLike;
  /** Tests: deliveries go to this port instead of the real adapters. */
  notify?: NotifyPort;
  /** The sync scheduler's timers (tests drive them in virtual time; default: real timers). */
  syncTimers?: Timers;
  /** The platform watch's timers (tests drive them in virtual time; default: real timers). */
  watchTimers?: Timers;
}

export async function startPlatform(config: Config, options: PlatformOptions = {}) {
  const logger = createLogger(config.logLevel);
  const metrics = createPlatformMetrics();
  const watchMetrics = platformWatchMetrics(metrics.registry);
  const now = options.now ?? (() => new Date());
  const embedded = config.auth.mode === 'embedded';

  // 1. Identity and stores. DATA_DIR's own key and client, or the files every instance of a cluster
  // shares (src/auth/identity-files.ts), are read first, so a missing shared file stops start-up
  // with nothing left open.
  ensurePrivateDirectory(config.dataDir);
  const identity = embedded
    ? loadEmbeddedIdentity(config.dataDir, config.sharedIdentity, (message) => logger.warn(message))
    : undefined;
  const stores = await openStores(config);
  const { readStore } = stores;

  // 2. The log: measured, watched for damage, validating; the newest events of the embedded log
  // are checked against their stream chains (a break is logged: src/eventstore/verify-tail.ts).
  // The whole log (and the embedded read models) is scrubbed in the background once the server
  // listens, and then every SCRUB_INTERVAL_HOURS: /health reports what it finds.
  const scrub = composeLogScrub({ config, logStore: stores.logStore, registry: metrics.registry, logger });
  const log = composeEventLog(stores.eventStore, metrics, () => scrub.finding('event_store'));
  const { eventStore } = log;
  if (!config.eventStoreUrl) await reportLogTail(join(config.dataDir, 'events.db'), logger);

  // 3. The projections, before any command can run: a command waits for its own write.
  const iamStamps = iamChangeStamps();
  // Which alert rules each commit changed: the evaluator keeps the rules in memory by it.
  const ruleChanges = docChangeFeed();
  const runner = await startProjections({
    config,
    eventStore,
    readStore,
    secrets: stores.secrets,
    stamps: iamStamps,
    ruleChanges,
    logger,
  });
  const commandDeps = {
    eventStore,
    now,
    waitForProjections: (position: bigint) => runner.waitFor(position, config.readYourWritesTimeoutMs),
    conflictBudgetMs: config.commandConflictBudgetMs,
  };

  // 4. The areas, each composed by its own module. Stream tickets and the simulator's state are
  // shared by every instance when MONGODB_URL is set; the cluster's members say which work is ours.
  const shared = await openSharedState(config, now);
  const cluster = composeCluster({
    config,
    db: shared.db,
    now,
    logger,
    registry: metrics.registry,
    probes: {
      log: () => eventStore.ping(),
      store: () => readStore.ping(),
      appendsRefused: () => log.appendRefusal(),
    },
  });
  const { membership } = cluster;
  const warehouse = await composeWarehouse(config, now, { simulatorState: shared.simulatorState, logger });
  const alerting = composeAlerting({
    config,
    commandDeps,
    readStore,
    metrics: warehouse.metrics,
    clusterIds: warehouse.clusterIds,
    logger,
    registry: metrics.registry,
    membership,
    ruleChanges,
    onOwnedRules: (count) => cluster.reportOwned('rules', count),
    onTick: () => platformWatch.ticked(),
    tickProgress: cluster.loops.evaluator,
  });
  // The platform watches itself (its evaluator, projections, log and deliveries) on its own timer.
  const platformWatch = composePlatformWatch({
    config,
    now,
    timers: options.watchTimers,
    instanceId: membership.self,
    reader: readStore,
    incidents: alerting.subjectIncidents,
    projections: () => runner.status(),
    appendRefusal: () => log.appendRefusal(),
    metrics: watchMetrics,
    logger,
  });
  const heartbeats = composeHeartbeats({
    config,
    commandDeps,
    readStore,
    subjectIncidents: alerting.subjectIncidents,
    membership,
    logger,
    registry: metrics.registry,
    scheduler: options.heartbeatScheduler,
  });
  const integrations = composeIntegrations({
    config,
    commandDeps,
    readStore,
    tokenKey: heartbeats.tokenKey,
    onIncidentResolved: alerting.onIncidentResolved,
  });
  const schedules = composeSchedules({ commandDeps, reader: readStore });
  // Previews, backtests and analytics share one cap per tenant and one across tenants.
  const heavySlots = createHeavyRequestSlots(config.limits.heavyRequests);
  const iam = composeIam({ ...commandDeps, config, reader: readStore, stamps: iamStamps, logger });
  // A link's recipient is judged by the API's own permission resolver.
  const actionLinks = composeActionLinks({ config, commandDeps, permissions: iam.permissions, reader: readStore });
  const escalation = composeEscalation({
    config,
    eventStore: platformWatch.observingDeliveries(eventStore),
    reader: readStore,
    logger,
    registry: metrics.registry,
    now,
    scheduler: options.scheduler,
    notify: options.notify,
    secrets: stores.secrets,
    actionLinks: actionLinks.issuer,
    waitForProjections: (position) => runner.waitFor(position, 60_000),
    membership,
    progress: cluster.loops.escalation,
    heavySlots,
  });
  const notifications = composeNotifications({
    commandDeps,
    reader: readStore,
    secrets: stores.secrets,
    notify: escalation.notify,
    publicUrl: config.notify.publicUrl,
    pagerLoopsBack: integrations.pagerLoopsBack,
  });
  const sync = composeSync({
    config,
    commandDeps,
    reader: readStore,
    warehouse: warehouse.gateway,
    logger,
    registry: metrics.registry,
    timers: options.syncTimers,
    membership,
    policyExists: async (tenantId, id) => (await findEscalationPolicy(readStore, tenantId, id)) !== null,
    incidents: alerting.subjectIncidents,
    watchMetrics,
  });
  const assistant = await composeAssistant({
    config,
    warehouse: { gateway: warehouse.gateway, mode: warehouse.mode },
    logger,
    now,
  });
  const backtest = composeBacktest({ config, reader: readStore, now, warehouse, syncStore: sync.store, heavySlots });
  const analytics = composeAnalytics({ reader: readStore, now, heavySlots });
  // Backtest before alerting: POST /alert-rules/backtest is not a rule id.
  const areas: PlatformArea[] = [
    notifications,
    iam,
    schedules,
    warehouse,
    backtest,
    alerting,
    heartbeats.area,
    integrations.area,
    escalation,
    sync,
    assistant,
    actionLinks.area,
    analytics,
    platformWatch,
  ];

  // 5. HTTP: the routes served without a token, then the API behind authentication.
  const publicRoutes: Router[] = [
    operationalRoutes({
      registry: metrics.registry,
      // Each read guarded: one that fails keeps its metric's last value and is counted, and the
      // rest of /metrics is served (src/metrics-collect.ts).
      beforeMetrics: async () => {
        const { registry } = metrics;
        await collectGuarded(registry, 'projection_lag_events', () => {
          for (const status of runner.status()) metrics.projectionLag.set({ projection: status.name }, status.lag);
        });
        await collectGuarded(registry, 'cluster_owned_work', () => cluster.reportOwned('sync_jobs', sync.ownedJobs()));
        await collectGuarded(registry, 'cluster_owned_work', async () =>
          cluster.reportOwned('incidents', await escalation.ownedActiveIncidents()),
        );
      },
      checks: {
        event_store: () => log.check(),
        read_store: async () => {
          const found = scrub.finding('read_store');
          if (found) throw new Error(found);
          await readStore.ping();
        },
        projections: projectionsHealthCheck({
          status: () => runner.status(),
          headPosition: () => eventStore.headPosition(),
          readAll: (options) => eventStore.readAll(options),
          maxLag: config.healthMaxProjectionLag,
        }),
        warehouse: async () => ({ ...(await warehouse.check()) }),
        relational_store: async () => sync.check(),
        assistant: async () => assistant.healthCheck(),
      },
      extra: () => ({
        projections: runner.status().map((s) => ({
          name: s.name,
          position: String(s.position),
          lag: s.lag,
          ...(s.failing ? { failing: s.failing } : {}),
          ...(s.building ? { building: { position: String(s.building.position), head: String(s.building.head) } } : {}),
        })),
      }),
    }),
    // The web dashboard: static, no token (its API calls carry one).
    dashboardRoutes({
      bundle: dashboardBundle(),
      logger,
      settings: { audience: config.baseUrl, identityProvider: embedded ? 'embedded' : 'external' },
    }),
  ];
  if (identity?.key && identity.devClient) {
    const { key, devClient } = identity;
    publicRoutes.push(
      embeddedIdpRoutes({
        key,
        issuer: config.auth.issuer,
        audience: config.baseUrl,
        clients: () => [devClient],
        limits: createTokenRequestLimits(config.limits.tokenRequests),
      }),
    );
  }
  // Built on first request from the routers as served (they exist once createApp has run).
  let apiDocument: unknown;
  publicRoutes.push(
    apiReferenceRoutes({
      document: () =>
        (apiDocument ??= platformApiDocument(
          { public: publicRoutes, api: routers },
          embedded,
          config.baseUrl,
        ).document),
    }),
  );
  publicRoutes.push(actionLinks.publicRoutes(alerting.onIncidentResolved));
  publicRoutes.push(heartbeats.publicRoutes());
  publicRoutes.push(...integrations.publicRoutes());

  // Browsers' EventSource cannot send a token: the feeds also take a short-lived ticket.
  const streamTickets = shared.tickets;
  const streamFeeds = [`${API_PREFIX}${INCIDENT_STREAM_PATH}`, `${API_PREFIX}${SYNC_STREAM_PATH}`];
  // The embedded identity provider serves its keys from this very server, whose port is known once
  // it listens: the key set is fetched on the first token, never before.
  let listeningUrl = '';
  const { app, routers } = createApp({
    corsOrigins: config.corsOrigins,
    logger,
    metrics,
    publicRoutes,
    permissions: iam.permissions,
    // A GET naming a read position waits for it only once authorised: the deactivated-user check
    // here, then the route's guard (src/http/guard.ts), so no unauthorised caller makes us wait.
    afterAuthentication: [
      ...iam.afterAuthentication,
      readAtPosition({ waitFor: (position) => runner.waitFor(position, config.readYourWritesTimeoutMs) }),
    ],
    authenticate: bearerOrStreamTicket(
      streamTickets,
      authenticate({
        jwksUri: () =>
          config.auth.mode === 'external' ? config.auth.jwksUri : `${listeningUrl}/.well-known/jwks.json`,
        issuer: config.auth.issuer,
        audience: config.baseUrl,
        now: () => now().getTime(),
        onRefreshFailed: (error) =>
          logger.warn(
            { err: error },
            "the identity provider's signing keys (JWKS) could not be refreshed; the last set read stays in use",
          ),
      }),
    ),
    modules: [
      ...areas.flatMap((area) => area.routes),
      { alias: false, routes: () => streamTicketRoutes({ tickets: streamTickets, feeds: streamFeeds }) },
    ],
  });
  const http = await listen(app.callback(), {
    port: config.port,
    host: config.host,
    requestTimeoutMs: config.limits.requestTimeoutMs,
    shutdownIdleGraceMs: config.limits.shutdownIdleGraceMs,
  });
  listeningUrl = http.url;

  // 6. The processes, once the server listens. Members first: the processes ask it which work is
  // theirs from their first step on.
  const processes = [...areas.flatMap((area) => area.processes), scrub.process];
  await membership.start();
  for (const process of processes) process.start();

  return {
    url: http.url,
    server: http.server,
    devClient: identity?.devClient,
    eventStore,
    readStore,
    runner,
    routers,
    /** The routers served without a token (health, metrics, identity provider, API document). */
    publicRouters: publicRoutes,
    evaluator: alerting.evaluator,
    /** The metric registry the evaluator reads (simulator pins included). */
    metrics: warehouse.metrics,
    escalation: escalation.manager,
    notify: escalation.notify,
    /** The relational store sync jobs write to. */
    syncStore: sync.store,
    /** Each area as composed (tests reach an area's parts here: a second evaluator, the live feeds). */
    composition: {
      alerting,
      heartbeats,
      integrations,
      sync,
      escalation,
      iam,
      warehouse,
      assistant,
      analytics,
      backtest,
      platformWatch,
      scrub,
    },
    async stop() {
      // Processes first: the live feed's stop ends every SSE response.
      for (const process of processes) await process.stop();
      // Leaving hands this instance's work to the others at once, not when its lease lapses.
      await membership.stop();
      await http.drain();
      await runner.stop();
      await eventStore.close();
      await readStore.close();
      await shared.close();
    },
  };
}

export type RunningPlatform = Awaited<ReturnType<typeof startPlatform>>;
