import { CosmosClient, type CosmosClientOptions } from '@azure/cosmos';
import { type Clock, systemClock } from '@nimbus/core';
import {
  type OpenMessageStore,
  parseRetentionOptions,
  type RetentionOptions,
  type StorageProviderCapabilities,
  type StorageProviderRegistration,
} from '@nimbus/message-store';
import {
  ComposedMessageStore,
  decorateStore,
  type MessageStoreSlices,
  traceStoreCalls,
  translateStoreErrors,
} from '@nimbus/message-store/provider';
import {
  COSMOS_ENV,
  type CosmosConnectionOptions,
  cosmosClientOptions,
  DEFAULT_COSMOS_DATABASE,
  resolveCosmosConnection,
} from './config/resolve-cosmos-connection.js';
import { CosmosAuditsAndReports } from './store/audits-and-reports.js';
import { CosmosStoreContext } from './store/cosmos-context.js';
import { toTransientError } from './store/cosmos-errors.js';
import { CosmosEndpointMetadataStore } from './store/endpoint-metadata-store.js';
import { CosmosEndpointViews } from './store/endpoint-views.js';
import { CosmosEventLookups } from './store/event-lookups.js';
import { CosmosEventSearch } from './store/event-search.js';
import { CosmosFailureGroups } from './store/failure-groups.js';
import { CosmosHeartbeatHistoryStore } from './store/heartbeat-history-store.js';
import { CosmosMessageHistory } from './store/message-history.js';
import { CosmosMetricsStore } from './store/metrics-store.js';
import { CosmosRetentionSweep } from './store/retention-sweep.js';
import { CosmosServiceHealthStore } from './store/service-health-store.js';
import { CosmosStatusWrites } from './store/status-writes.js';
import { CosmosSubscriptionStore } from './store/subscription-store.js';

export const COSMOS_PROVIDER_NAME = 'Cosmos DB';

/** Cross-account container copy is not implemented, so the flag says so. */
export const COSMOS_STORE_CAPABILITIES: StorageProviderCapabilities = Object.freeze({
  supportsCrossAccountCopy: false,
});

export interface CosmosMessageStoreOptions extends CosmosConnectionOptions {
  /** An explicit client (tests, custom setups); wins over every other connection setting. */
  readonly client?: CosmosClient;
  /** Database id (default: NIMBUS_COSMOS_DATABASE, else `nimbus`); created when missing. */
  readonly databaseId?: string;
  readonly clock?: Clock;
  /** Code values win over NIMBUS_STORE_UNRESOLVED_RETENTION_DAYS; invalid values fail the open. */
  readonly retention?: Partial<RetentionOptions>;
  /**
   * The SDK's throttling retries: how often and how long a 429 is retried (honouring the service's
   * retry-after) before it surfaces as a StorageProviderTransientError. Defaults 9 attempts / 30 s.
   */
  readonly throttlingRetries?: {
    readonly maxRetryAttemptCount?: number;
    readonly maxWaitTimeInSeconds?: number;
  };
  /** Passed to the CosmosClient built from the connection settings (ignored with `client`). */
  readonly clientOptions?: Partial<CosmosClientOptions>;
}

export interface CosmosMessageStore extends OpenMessageStore {
  readonly capabilities: StorageProviderCapabilities;
  readonly databaseId: string;
  readonly retention: RetentionOptions;
}

async function buildClient(
  options: CosmosMessageStoreOptions,
): Promise<{ client: CosmosClient; owned: boolean }> {
  if (options.client) return { client: options.client, owned: false };
  const connection = resolveCosmosConnection(options);
  const retryOptions = {
    maxRetryAttemptCount: options.throttlingRetries?.maxRetryAttemptCount ?? 9,
    fixedRetryIntervalInMilliseconds: 0,
    maxWaitTimeInSeconds: options.throttlingRetries?.maxWaitTimeInSeconds ?? 30,
  };
  const clientOptions = await cosmosClientOptions(connection, {
    ...options.clientOptions,
    connectionPolicy: { ...options.clientOptions?.connectionPolicy, retryOptions },
  });
  return { client: new CosmosClient(clientOptions), owned: true };
}

/**
 * Opens the Cosmos DB store: validates retention, connects, creates the database and the store's own
 * containers when missing (TTL on, `defaultTtl = -1`). Endpoint containers are created on first write.
 */
export async function createCosmosMessageStore(
  options: CosmosMessageStoreOptions = {},
): Promise<CosmosMessageStore> {
  const env = options.env ?? process.env;
  const retention = parseRetentionOptions({ env, options: options.retention ?? {} });
  const databaseId = options.databaseId ?? env[COSMOS_ENV.database] ?? DEFAULT_COSMOS_DATABASE;
  const { client, owned } = await buildClient(options);
  let context: CosmosStoreContext;
  try {
    const { database } = await client.databases.createIfNotExists({ id: databaseId });
    context = new CosmosStoreContext(client, database, options.clock ?? systemClock, retention);
    await context.ensureStoreContainers();
  } catch (error) {
    if (owned) client.dispose();
    throw toTransientError(error, `opening Cosmos DB database '${databaseId}'`);
  }
  const history = new CosmosMessageHistory(context);
  const writes = new CosmosStatusWrites(context, history);
  const store = new CosmosComposedStore(
    {
      statusWrites: writes,
      lifecycle: writes,
      lookups: new CosmosEventLookups(context),
      search: new CosmosEventSearch(context),
      failureGroups: new CosmosFailureGroups(context),
      views: new CosmosEndpointViews(context),
      history,
      audits: new CosmosAuditsAndReports(context),
      retention: new CosmosRetentionSweep(context),
      subscriptions: new CosmosSubscriptionStore(context),
      metadata: new CosmosEndpointMetadataStore(context),
      metrics: new CosmosMetricsStore(context),
      serviceHealth: new CosmosServiceHealthStore(context),
      heartbeatHistory: new CosmosHeartbeatHistoryStore(context),
    },
    async () => {
      if (owned) client.dispose();
    },
    { databaseId, retention },
  );
  return decorateStore<CosmosMessageStore>(store, [
    traceStoreCalls(options.clock ?? systemClock),
    translateStoreErrors((error, call) => toTransientError(error, call.method)),
  ]);
}

/** The composed store plus what only the Cosmos provider knows; `stop`/`close` release once. */
class CosmosComposedStore extends ComposedMessageStore implements CosmosMessageStore {
  readonly capabilities = COSMOS_STORE_CAPABILITIES;
  readonly databaseId: string;
  readonly retention: RetentionOptions;

  constructor(
    slices: MessageStoreSlices,
    release: () => Promise<void>,
    details: { databaseId: string; retention: RetentionOptions },
  ) {
    super(COSMOS_PROVIDER_NAME, slices, release);
    this.databaseId = details.databaseId;
    this.retention = details.retention;
  }
}

/** The provider registration (exactly one per application, see `resolveSingleProvider`). */
export function cosmosStorageProvider(options: CosmosMessageStoreOptions = {}): StorageProviderRegistration {
  return {
    providerName: COSMOS_PROVIDER_NAME,
    capabilities: COSMOS_STORE_CAPABILITIES,
    open: () => createCosmosMessageStore(options),
  };
}
