import { type Logger, type Platform, serviceReadiness, topologyFromPlatform } from '@nimbus/core';
import type { MigrationMode } from '@nimbus/message-store-sql';
import { createHeartbeatScheduler, createResolver, healthRequestListener } from '@nimbus/resolver';
import { type BootstrapResult, createWebApp, oidcOptionsFromEnv } from '@nimbus/webapp';
import { openAlertStore, smtpFromEnv } from '../backends/open-alerts.js';
import { openBulkJobStore } from '../backends/open-bulk-jobs.js';
import { openIdentityStore } from '../backends/open-identity.js';
import { openNotifier } from '../backends/open-notifier.js';
import { openStore } from '../backends/open-store.js';
import { openTransport } from '../backends/open-transport.js';
import type { LeaseSettings } from '../commands/lease-options.js';
import type { DatabaseTimeouts } from '../commands/timeout-options.js';
import type { NimbusConfig } from '../config.js';
import { migrationProgressLine } from '../migration-progress.js';
import { startServiceMetrics } from '../observability/service-metrics.js';
import { alertTimingFromEnv } from './alert-timing-env.js';
import { printBlockedSessions } from './blocked-session-lines.js';
import { Closers } from './closers.js';
import { metricsAccessFromEnv } from './metrics-access.js';
import type { SampleModule } from './sample-module.js';
import type { StartupListener } from './startup-listener.js';
import { describeTopologyChanges } from './topology-summary.js';

export interface SampleOptions {
  /** The sample platform module (loaded at run time, like any user platform). */
  readonly module: SampleModule;
  readonly trafficIntervalMs: number;
  /** Publish the blocked-session scenario; `auto`: only when the store has never seen its customer. */
  readonly blockedScenario: boolean | 'auto';
}

export interface ServicesOptions {
  readonly config: NimbusConfig;
  readonly logger: Logger;
  /** Shown in the WebApp; its topology is applied at start unless `applyTopology` is false. */
  readonly platform: Platform | null;
  readonly applyTopology?: boolean;
  readonly resolver: boolean;
  readonly webapp: boolean;
  readonly sample: SampleOptions | null;
  readonly migrationMode: MigrationMode;
  /** Where status lines go (stdout). */
  readonly print: (line: string) => void;
  readonly environment: string;
  /** Deployments generate the first admin's password instead of using the public default. */
  readonly generateBootstrapPassword?: boolean;
  /** Turn endpoint heartbeats on (every 60 s) when the store has never had them configured; `nimbus dev` does. */
  readonly enableHeartbeatsWhenUnconfigured?: boolean;
  /** The Resolver's health port (`/healthz`, `/readyz`, `/metrics`); null or absent: none. */
  readonly health?: { readonly host: string; readonly port: number } | null;
  /**
   * The ports opened before the start (`startServicesWhenReachable`): the health routes and the WebApp take
   * them over. Without `webapp`, the WebApp opens `config.host:config.port` itself; without `health`, no health port.
   */
  readonly listeners: { readonly health?: StartupListener; readonly webapp?: StartupListener };
  /** `/metrics` then wants `Authorization: Bearer <token>` on the WebApp. */
  readonly metricsToken?: string;
  readonly trustProxy?: boolean;
  /** `--store cosmos` without an account starts the local Cosmos server; `nimbus dev` does. */
  readonly localCosmosWhenUnconfigured?: boolean;
  /** `--transport servicebus` without a namespace starts nimbus-sb-emulator in-process; `nimbus dev` does. */
  readonly localServiceBusWhenUnconfigured?: boolean;
  /** Print a line when a session blocks (endpoint, session, error); `nimbus dev` does. */
  readonly printBlockedSessions?: boolean;
  /** How long the Resolver and the WebApp get to finish in-flight work at stop. Default 30 000 ms. */
  readonly drainTimeoutMs?: number;
  /**
   * The session lease (`--lease-ms`, `--lease-renew-ms`) of every session host in the process (the Resolver, the
   * sample adapters); default: the transport's, renewed every third.
   */
  readonly lease?: LeaseSettings;
  /** Statement and lock timeouts of every store, transport and WebApp database connection. */
  readonly timeouts?: DatabaseTimeouts;
}

const DEV_HEARTBEAT_INTERVAL_SECONDS = 60;
/** Sessions the Resolver holds when tracking is co-located (its default, 128, is for the Resolver shape). */
const COLOCATED_RESOLVER_SESSIONS = 8;

export interface RunningServices {
  readonly url: string | null;
  readonly bootstrap: BootstrapResult | null;
  /** The Resolver's health port URL when one was asked for. */
  readonly healthUrl: string | null;
  stop(): Promise<boolean>;
}

function serviceNameOf(options: ServicesOptions): string {
  if (options.resolver && options.webapp) return 'nimbus-dev';
  return options.resolver ? 'nimbus-resolver' : 'nimbus-webapp';
}

/** Opens the backends and starts the requested services in one process; cleans up if any step fails. */
export async function startServices(options: ServicesOptions): Promise<RunningServices> {
  const { config, logger, print } = options;
  const closers = new Closers();
  const drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
  try {
    const { notifier, close: closeNotifier } = await openNotifier(config, logger);
    closers.add('the state-change notifier', closeNotifier);
    const store = await openStore(config, {
      logger,
      notifier,
      migrationMode: options.migrationMode,
      onMigrationProgress: (progress) => print(migrationProgressLine(progress)),
      retentionSweep: true,
      ...(options.timeouts ? { timeouts: options.timeouts } : {}),
      localCosmosWhenUnconfigured: options.localCosmosWhenUnconfigured ?? false,
      print,
    });
    closers.add('the message store', () => store.close());
    const transport = await openTransport(config, {
      logger,
      migrationMode: options.migrationMode,
      onMigrationProgress: (progress) => print(migrationProgressLine(progress, 'transport')),
      serviceBus: { localEmulatorWhenUnconfigured: options.localServiceBusWhenUnconfigured ?? false, print },
      notifier,
      ...(options.lease?.lockDurationMs === undefined
        ? {}
        : { lockDurationMs: options.lease.lockDurationMs }),
      ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    });
    closers.add('the transport', () => transport.close());

    const metrics = startServiceMetrics({
      transport,
      store,
      platform: options.platform,
      logger,
      serviceName: serviceNameOf(options),
      busGauges: options.resolver,
    });
    closers.add('the metrics', () => metrics.close());

    if (options.platform && options.applyTopology !== false) {
      const changes = await transport.applyTopology(topologyFromPlatform(options.platform));
      for (const line of describeTopologyChanges(changes)) print(`topology: ${line}`);
    }

    if (options.resolver) {
      const renewal = options.lease?.renewalIntervalMs;
      const resolver = createResolver({
        transport,
        store,
        logger,
        options: {
          ...(renewal === undefined ? {} : { leaseRenewalIntervalMs: renewal }),
          // Co-located, the transports record the plain traffic themselves: what is left for the Resolver (retries,
          // operator requests, heartbeats) is small, and 128 idle accept loops would poll the database for nothing.
          ...(config.tracking === 'colocated' ? { maxConcurrentSessions: COLOCATED_RESOLVER_SESSIONS } : {}),
        },
      });
      await resolver.start();
      closers.add('the resolver', () => resolver.stop({ timeoutMs: drainTimeoutMs }));
      if (options.printBlockedSessions) {
        const stopPrinting = printBlockedSessions({
          store,
          notifier,
          print,
          since: new Date(),
          onError: (error) => logger.warn({ err: String(error) }, 'Could not read blocked sessions'),
        });
        closers.add('the blocked-session lines', async () => stopPrinting());
      }

      if (options.enableHeartbeatsWhenUnconfigured) {
        const settings = await store.getHeartbeatSettings();
        if (!settings.enabled && settings.lastSentAtUtc === null) {
          await store.setHeartbeatSettings({
            ...settings,
            enabled: true,
            intervalSeconds: DEV_HEARTBEAT_INTERVAL_SECONDS,
          });
        }
      }
      const catalog = options.platform ?? (await transport.getTopology()).endpoints;
      const heartbeat = createHeartbeatScheduler({ transport, store, catalog, logger });
      await heartbeat.start();
      closers.add('the heartbeat scheduler', () => heartbeat.stop());
    }

    let healthUrl: string | null = null;
    const healthPort = options.listeners.health;
    if (healthPort) {
      healthPort.serve(
        healthRequestListener({ logger, metrics, readiness: () => serviceReadiness({ store, transport }) }),
      );
      healthUrl = healthPort.url;
      closers.add('the health port', async () => healthPort.starting('stopping'));
    }

    let url: string | null = null;
    let bootstrap: BootstrapResult | null = null;
    if (options.webapp) {
      const identityStore = openIdentityStore(config, options.timeouts, options.migrationMode);
      closers.add('the identity store', () => identityStore.close());
      const bulkJobStore = openBulkJobStore(config, options.timeouts, options.migrationMode);
      closers.add('the bulk job store', () => bulkJobStore.close());
      const alertStore = openAlertStore(config, options.timeouts, options.migrationMode);
      closers.add('the alert store', () => alertStore.close());
      const smtp = smtpFromEnv(process.env);
      const oidc = oidcOptionsFromEnv(process.env);
      const webapp = await createWebApp({
        store,
        transport,
        identityStore,
        bulkJobStore,
        alerts: {
          store: alertStore,
          ...(smtp ? { smtp } : {}),
          allowPrivateWebhookTargets: process.env.NIMBUS_ALERTS_ALLOW_PRIVATE_WEBHOOKS === 'true',
          ...alertTimingFromEnv(process.env),
        },
        notifier,
        logger,
        environment: options.environment,
        generateBootstrapPassword: options.generateBootstrapPassword ?? false,
        ...(options.platform ? { platform: options.platform } : {}),
        metrics,
        ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
        metricsAccess: metricsAccessFromEnv(process.env),
        ...(options.trustProxy ? { trustProxy: true } : {}),
        // Single sign-on from NIMBUS_OIDC_* (docs/webapp.md); NIMBUS_LOCAL_ACCOUNTS=false leaves it the only way in.
        ...(oidc ? { oidc, localAccounts: process.env.NIMBUS_LOCAL_ACCOUNTS !== 'false' } : {}),
      });
      bootstrap = webapp.bootstrap;
      closers.add('the webapp', () => webapp.close({ timeoutMs: drainTimeoutMs }));
      const port = options.listeners.webapp;
      url = port
        ? await webapp.listen({ server: port })
        : await webapp.listen({ host: config.host, port: config.port });
    }

    if (options.sample) {
      const log = (line: string) => print(`[sample] ${line}`);
      const { module } = options.sample;
      const renewal = options.lease?.renewalIntervalMs;
      const adapters = await module.startSampleAdapters({
        transport,
        logger,
        log,
        ...(renewal === undefined ? {} : { leaseRenewalIntervalMs: renewal }),
      });
      closers.add('the sample adapters', () => adapters.stop());
      const traffic = await module.startTrafficGenerator({
        transport,
        log,
        intervalMs: options.sample.trafficIntervalMs,
        blockedScenario:
          options.sample.blockedScenario === 'auto'
            ? (
                await store.getEventsByFilter({
                  filter: { sessionId: module.blockedDemoCustomer },
                  continuationToken: null,
                  maxItems: 1,
                })
              ).events.length === 0
            : options.sample.blockedScenario,
      });
      closers.add('the traffic generator', () => traffic.stop());
    }

    return { url, bootstrap, healthUrl, stop: () => closers.closeAll(logger) };
  } catch (error) {
    await closers.closeAll(logger);
    throw error;
  }
}
