import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import {
  consoleLogger,
  LifecycleRunner,
  NimBusError,
  NimBusErrorCode,
  type ServiceLifecycle,
  type StopOptions,
  serviceReadiness,
  stopChild,
  systemClock,
  uuidv7,
} from '@nimbus/core';
import { InProcessStateChangeNotifier, withStateChangeNotifications } from '@nimbus/message-store';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { Alerting } from '../alerts/alerting.js';
import { AuditLog } from '../audit/audit-log.js';
import { accountRoutes } from '../auth/account-routes.js';
import { apiTokenRoutes } from '../auth/api-token-routes.js';
import { Authenticator } from '../auth/authenticator.js';
import { type BootstrapResult, bootstrapAdmin, DEFAULT_ADMIN_PASSWORD } from '../auth/bootstrap-admin.js';
import { DefaultPasswordCheck } from '../auth/default-password.js';
import { OIDC_ROUTE_DOCS } from '../auth/oidc/oidc-route-docs.js';
import { registerOidcRoutes } from '../auth/oidc/oidc-routes.js';
import { signInModesRoute } from '../auth/oidc/sign-in-modes.js';
import { prepareDummyHash } from '../auth/password.js';
import { createLimiter, DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from '../auth/sign-in-limits.js';
import { API_DOCS_ROUTE_DOCS, registerApiDocsRoutes } from '../http/api-docs-routes.js';
import { installErrorHandler } from '../http/error-handler.js';
import { installInputGuard } from '../http/input-guard.js';
import { buildOpenApiDocument } from '../http/openapi.js';
import { registerRoute } from '../http/register-route.js';
import { installRequestLog } from '../http/request-log.js';
import type { AnyRouteSpec } from '../http/route.js';
import { addSecurityHeaders } from '../http/security-headers.js';
import { LiveUpdateHub, type SubscribableNotifier } from '../live/live-update-hub.js';
import { LIVE_ROUTE_DOC, registerSseRoute } from '../live/sse-route.js';
import { registerStorageHookRoutes, STORAGE_HOOK_ROUTE_DOCS } from '../live/storage-hook-routes.js';
import { StreamRegistry } from '../live/stream-registry.js';
import { probeRouteDocs, registerProbeRoutes } from '../observability/probe-routes.js';
import { BulkJobResumer } from '../operator/bulk-job-resumer.js';
import { createMemoryBulkJobStore } from '../operator/bulk-job-store.js';
import { BulkJobs } from '../operator/bulk-jobs.js';
import { type BulkFilter, collectBulkTargets } from '../operator/bulk-targets.js';
import { OperatorActions } from '../operator/operator-actions.js';
import { actionRoutes } from '../routes/action-routes.js';
import { alertRoutes } from '../routes/alert-routes.js';
import { alertSnoozeRoutes } from '../routes/alert-snooze-routes.js';
import { auditRoutes } from '../routes/audit-routes.js';
import { bulkJobRoutes } from '../routes/bulk-job-routes.js';
import { deadLetterRoutes } from '../routes/dead-letter-routes.js';
import { endpointRoutes } from '../routes/endpoint-routes.js';
import { eventRoutes } from '../routes/event-routes.js';
import { eventSearchRoutes } from '../routes/event-search-routes.js';
import { eventTypeRoutes } from '../routes/event-type-routes.js';
import { failureGroupRoutes } from '../routes/failure-group-routes.js';
import { healthRoutes } from '../routes/health-routes.js';
import { metricsRoutes } from '../routes/metrics-routes.js';
import { monitoringRoutes } from '../routes/monitoring-routes.js';
import { platformRoutes } from '../routes/platform-routes.js';
import { userAdminRoutes } from '../routes/user-admin-routes.js';
import { userRoutes } from '../routes/user-routes.js';
import { serveUi } from '../ui-server/serve-ui.js';
import type { ApiDeps } from './api-deps.js';
import { EndpointCatalog } from './endpoint-catalog.js';
import type { ListeningServer } from './listening-server.js';
import { isPinoLogger } from './pino-logger.js';

export type { WebAppOptions } from './web-app-options.js';

import type { WebAppOptions } from './web-app-options.js';

export interface WebApp extends ServiceLifecycle {
  readonly server: FastifyInstance;
  readonly notifier: SubscribableNotifier;
  readonly bootstrap: BootstrapResult;
  readonly uiBuilt: boolean;
  readonly openApi: ReturnType<typeof buildOpenApiDocument>;
  /** The alert loop (`runOnce()` evaluates and sends now). */
  readonly alerting: Alerting;
  /** Every method and URL Fastify registered (the UI's static files and automatic HEAD routes included). */
  readonly registeredRoutes: readonly RegisteredRoute[];
  /**
   * Starts listening; resolves the base URL (`http://127.0.0.1:12345`). With `server`, takes over that
   * already-listening server's requests instead of opening a port (`ListeningServer`).
   */
  listen(options?: {
    readonly host?: string;
    readonly port?: number;
    readonly server?: ListeningServer;
  }): Promise<string>;
  /** The base URL once listening. */
  readonly url: string | null;
  /** Stops taking requests and ends live streams; in-flight requests get `timeoutMs` (default 10 000) to finish. */
  close(options?: StopOptions): Promise<void>;
}

export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
}

const VERSION = '0.1.0';

const DEFAULT_UI_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../ui/dist');

/** Builds the operator WebApp: REST API + OpenAPI, local sign-in, audit, SSE and the UI. */
export async function createWebApp(options: WebAppOptions): Promise<WebApp> {
  const logger = options.logger ?? consoleLogger;
  const clock = options.clock ?? systemClock;
  const notifier = options.notifier ?? new InProcessStateChangeNotifier({ logger });
  // A notifier of its own is told by nobody else: the WebApp's store writes then notify it through the store.
  const store = options.notifier
    ? options.store
    : withStateChangeNotifications(options.store, notifier, { logger });
  const hub = new LiveUpdateHub(notifier);
  const identityStore = options.identityStore;
  await identityStore.initialize();
  const bulkJobStore = options.bulkJobStore ?? createMemoryBulkJobStore();
  await bulkJobStore.initialize();
  prepareDummyHash();
  const localAccounts = options.localAccounts ?? true;
  if (!localAccounts && !options.oidc)
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      'localAccounts: false needs an oidc provider to sign in.',
    );
  const bootstrap = await bootstrapAdmin({
    enabled: localAccounts,
    identityStore,
    logger,
    clock,
    env: options.env ?? process.env,
    generatePassword: options.generateBootstrapPassword ?? false,
  });

  const server = Fastify({
    // A pino logger (the CLI's) also writes Fastify's request logs, each with its request id.
    ...(isPinoLogger(options.logger)
      ? { loggerInstance: options.logger, logController: new LogController({ disableRequestLogging: true }) }
      : { logger: false }),
    requestIdHeader: 'x-request-id',
    genReqId: () => uuidv7(),
    trustProxy: options.trustProxy ?? false,
    bodyLimit: 2 * 1024 * 1024,
    // Room for a percent-encoded id of MAX_ID_LENGTH characters; the route schemas then name a longer one (400).
    routerOptions: { maxParamLength: 2000 },
  });
  const registeredRoutes: RegisteredRoute[] = [];
  server.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) registeredRoutes.push({ method, url: route.url });
  });
  server.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Request-Id', request.id);
    return payload;
  });
  await server.register(fastifyCookie);
  // No global limit: the sign-in and password-check limiters are created below from this plugin.
  await server.register(fastifyRateLimit, { global: false });
  addSecurityHeaders(server);
  if (isPinoLogger(options.logger)) installRequestLog(server);
  installErrorHandler(server, logger);
  installInputGuard(server);

  const sessionTtlMs = options.sessionTtlMs ?? 8 * 3_600_000;
  const authenticator = new Authenticator({ identityStore, clock, logger, sessionTtlMs });
  server.decorateRequest('principal', null);
  server.addHook('onRequest', async (request) => {
    request.principal = await authenticator.principalOf(request);
  });

  const auditLog = new AuditLog(
    (row) =>
      store.storeMessageAudit({
        eventId: row.eventId ?? 'site',
        audit: row,
        endpointId: row.endpointId,
        eventTypeId: row.eventTypeId,
      }),
    clock,
    logger,
  );
  const streams = new StreamRegistry();
  const limits: SignInLimits = { ...DEFAULT_SIGN_IN_LIMITS, ...options.signInLimits };
  const catalog = new EndpointCatalog(options.platform ?? null, store, options.extraEndpoints);
  const alerting = new Alerting({ ...options, store, catalog, clock, logger }, options.alerts);
  await alerting.store.initialize();
  const deps: ApiDeps = {
    store,
    streams,
    transport: options.transport,
    platform: options.platform ?? null,
    catalog,
    alerting,
    identityStore,
    hub,
    auditLog,
    clock,
    logger,
    provider: {
      name: store.providerName ?? 'unknown',
      capabilities: options.storageCapabilities ?? store.capabilities ?? { supportsCrossAccountCopy: false },
    },
    environment: options.environment ?? 'dev',
    version: VERSION,
  };
  const actions = new OperatorActions(deps);
  const bulkJobs = new BulkJobs(hub, bulkJobStore, clock, logger, (job, goOn) =>
    collectBulkTargets(store, job.endpointIds, job.filter as BulkFilter, goOn),
  );
  const bulkJobResumer = new BulkJobResumer({ bulkJobs, actions, identityStore, auditLog, logger });
  const routes: AnyRouteSpec[] = [
    ...accountRoutes({
      identityStore,
      authenticator,
      cookiePolicy: { secure: options.secureCookies ?? 'auto' },
      localAccounts,
      clock,
      logger,
      auditLog,
      streams,
      signIn: {
        identityStore,
        auditLog,
        clock,
        logger,
        limits,
        perAddress: createLimiter(server, limits.perAddress, 'sign-in (this address)'),
        perAccount: createLimiter(server, limits.perAccount, 'sign-in (this account)'),
      },
      passwordCheck: createLimiter(server, limits.passwordCheck, 'current-password'),
      defaultPassword: new DefaultPasswordCheck(DEFAULT_ADMIN_PASSWORD),
    }),
    signInModesRoute(localAccounts, options.oidc),
    ...apiTokenRoutes({ identityStore, auditLog, clock, streams }),
    ...endpointRoutes(deps),
    ...deadLetterRoutes(deps),
    ...eventRoutes(deps),
    ...eventSearchRoutes(deps),
    ...actionRoutes(deps, actions),
    ...bulkJobRoutes(deps, actions, bulkJobs),
    ...failureGroupRoutes(deps),
    ...metricsRoutes(deps),
    ...monitoringRoutes(deps),
    ...healthRoutes(deps),
    ...platformRoutes(deps),
    ...eventTypeRoutes(deps),
    ...userRoutes(deps),
    ...userAdminRoutes(deps),
    ...auditRoutes(deps),
    ...alertRoutes(deps),
    ...alertSnoozeRoutes(deps),
  ];
  for (const route of routes) registerRoute(server, authenticator, auditLog, route);
  const openApi = buildOpenApiDocument(routes, { title: 'NimBus WebApp API', version: VERSION }, [
    ...API_DOCS_ROUTE_DOCS,
    ...probeRouteDocs(options),
    LIVE_ROUTE_DOC,
    ...(options.storageHookKey ? STORAGE_HOOK_ROUTE_DOCS : []),
    ...(options.oidc ? OIDC_ROUTE_DOCS : []),
  ]);
  await registerApiDocsRoutes(server, openApi);
  if (options.oidc) {
    const cookiePolicy = { secure: options.secureCookies ?? 'auto' } as const;
    const oidcDeps = { identityStore, authenticator, cookiePolicy, auditLog, clock, logger, sessionTtlMs };
    registerOidcRoutes(server, { ...oidcDeps, options: options.oidc });
  }
  registerProbeRoutes(server, {
    readiness: () => serviceReadiness({ store, transport: options.transport, liveUpdates: notifier }),
    logger,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
    ...(options.metricsAccess ? { metricsAccess: options.metricsAccess } : {}),
  });
  registerSseRoute(server, {
    hub,
    streams,
    authenticator,
    keepAliveMs: options.sseKeepAliveMs ?? 25_000,
  });
  if (options.storageHookKey) registerStorageHookRoutes(server, hub, options.storageHookKey);
  const { built } = await serveUi(server, options.uiDistDir ?? DEFAULT_UI_DIST);
  if (!built)
    logger.warn(
      {},
      'WebApp UI is not built; browser pages show how to build it (npm run build:ui -w @nimbus/webapp)',
    );

  let url: string | null = null;
  let listenOn: { host?: string; port?: number; server?: ListeningServer } = {};
  const lifecycle = new LifecycleRunner({
    start: async () => {
      if (listenOn.server) {
        await server.ready();
        listenOn.server.serve(server.routing);
        url = listenOn.server.url;
      } else url = await server.listen({ host: listenOn.host ?? '127.0.0.1', port: listenOn.port ?? 0 });
      logger.info({ url }, `NimBus WebApp listening on ${url}`);
      await alerting.start();
      bulkJobResumer.start();
    },
    stop: async ({ timeoutMs = 10_000, signal }) => {
      // Keep-alive and slow requests must not hold the shutdown beyond its timeout (nor past an `abort()`).
      const closeAll = () => server.server.closeAllConnections();
      const timer = setTimeout(closeAll, timeoutMs);
      timer.unref();
      signal.addEventListener('abort', closeAll, { once: true });
      try {
        await stopChild(alerting, { timeoutMs, signal });
        // Running bulk jobs stop before their next event and are released for the next WebApp to resume.
        await bulkJobResumer.stop();
        await bulkJobs.stop();
        await server.close();
      } finally {
        clearTimeout(timer);
        signal.removeEventListener('abort', closeAll);
        hub.detach();
      }
    },
  });
  return {
    server,
    notifier,
    bootstrap,
    uiBuilt: built,
    openApi,
    alerting,
    registeredRoutes,
    get url() {
      return url;
    },
    get state() {
      return lifecycle.state;
    },
    listen: async (options = {}) => {
      listenOn = options;
      await lifecycle.start();
      return url as string;
    },
    start: () => lifecycle.start(),
    stop: (stopOptions) => lifecycle.stop(stopOptions),
    close: (stopOptions) => lifecycle.stop(stopOptions),
    abort: () => lifecycle.abort(),
    closed: () => lifecycle.closed(),
    [Symbol.asyncDispose]: () => lifecycle.stop(),
  };
}
