import { type Logger, type Platform, topologyFromPlatform } from '@nimbus/core';
import { BLOCKED_DEMO_CUSTOMER, startSampleAdapters, startTrafficGenerator } from '@nimbus/example-crm-erp';
import { InProcessStateChangeNotifier } from '@nimbus/message-store';
import type { MigrationMode } from '@nimbus/message-store-sql';
import { createHeartbeatScheduler, createResolver } from '@nimbus/resolver';
import { type BootstrapResult, createWebApp } from '@nimbus/webapp';
import { openIdentityStore } from '../backends/open-identity.js';
import { openStore } from '../backends/open-store.js';
import { openTransport } from '../backends/open-transport.js';
import type { NimbusConfig } from '../config.js';
import { CliError } from '../exit-codes.js';
import { migrationProgressLine } from '../migration-progress.js';
import { Closers } from './closers.js';
import { describeTopologyChanges } from './topology-summary.js';

export interface SampleOptions {
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
}

const DEV_HEARTBEAT_INTERVAL_SECONDS = 60;

export interface RunningServices {
  readonly url: string | null;
  readonly bootstrap: BootstrapResult | null;
  stop(): Promise<boolean>;
}

/** Opens the backends and starts the requested services in one process; cleans up if any step fails. */
export async function startServices(options: ServicesOptions): Promise<RunningServices> {
  const { config, logger, print } = options;
  const closers = new Closers();
  try {
    const notifier = new InProcessStateChangeNotifier({ logger });
    const store = await openStore(config, {
      logger,
      migrationMode: options.migrationMode,
      onMigrationProgress: (progress) => print(migrationProgressLine(progress)),
      retentionSweep: true,
    });
    closers.add('the message store', () => store.close());
    const transport = await openTransport(config);
    closers.add('the transport', () => transport.close());

    if (options.platform && options.applyTopology !== false) {
      const changes = await transport.applyTopology(topologyFromPlatform(options.platform));
      for (const line of describeTopologyChanges(changes)) print(`topology: ${line}`);
    }

    if (options.resolver) {
      const resolver = createResolver({ transport, store, notifier, logger });
      await resolver.start();
      closers.add('the resolver', () => resolver.stop());

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
      const heartbeat = createHeartbeatScheduler({ transport, store, catalog, notifier, logger });
      heartbeat.start();
      closers.add('the heartbeat scheduler', () => heartbeat.stop());
    }

    let url: string | null = null;
    let bootstrap: BootstrapResult | null = null;
    if (options.webapp) {
      const identityStore = openIdentityStore(config);
      closers.add('the identity store', () => identityStore.close());
      const webapp = await createWebApp({
        store,
        transport,
        identityStore,
        notifier,
        logger,
        environment: options.environment,
        generateBootstrapPassword: options.generateBootstrapPassword ?? false,
        ...(options.platform ? { platform: options.platform } : {}),
      });
      bootstrap = webapp.bootstrap;
      closers.add('the webapp', () => webapp.close());
      url = await webapp
        .listen({ host: config.host, port: config.port })
        .catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EADDRINUSE') throw error;
          throw new CliError(
            `Port ${config.port} on ${config.host} is in use; pass --port <port> (or --port 0 for any free port).`,
          );
        });
    }

    if (options.sample) {
      const log = (line: string) => print(`[sample] ${line}`);
      const adapters = await startSampleAdapters({ transport, logger, log });
      closers.add('the sample adapters', () => adapters.stop());
      const traffic = await startTrafficGenerator({
        transport,
        log,
        intervalMs: options.sample.trafficIntervalMs,
        blockedScenario:
          options.sample.blockedScenario === 'auto'
            ? (
                await store.getEventsByFilter({
                  filter: { sessionId: BLOCKED_DEMO_CUSTOMER },
                  continuationToken: null,
                  maxItems: 1,
                })
              ).events.length === 0
            : options.sample.blockedScenario,
      });
      closers.add('the traffic generator', () => traffic.stop());
    }

    return { url, bootstrap, stop: () => closers.closeAll(logger) };
  } catch (error) {
    await closers.closeAll(logger);
    throw error;
  }
}
