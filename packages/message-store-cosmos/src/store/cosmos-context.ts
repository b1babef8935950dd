import type { Container, CosmosClient, Database, SqlParameter } from '@azure/cosmos';
import type { Clock } from '@nimbus/core';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import type { RetentionOptions } from '@nimbus/message-store';
import { isReservedStoreEndpointId } from '@nimbus/message-store/provider';
import { isCosmosStatus } from './cosmos-errors.js';
import { ENDPOINT_PARTITION_KEY, encodeId, STORE_CONTAINERS, type StoreContainerSpec } from './layout.js';

type StoreContainerName = keyof typeof STORE_CONTAINERS;

/** What every part of the Cosmos store shares: the database, its containers, the clock and retention. */
export class CosmosStoreContext {
  readonly #creatingContainers = new Map<string, Promise<Container>>();
  readonly #endpointContainers = new Map<string, Container>();
  readonly #storeContainers = new Map<StoreContainerName, Container>();
  #counter = 0;

  constructor(
    readonly client: CosmosClient,
    readonly database: Database,
    readonly clock: Clock,
    readonly retention: RetentionOptions,
  ) {}

  /** Creates the database's own containers if missing (TTL on, no default: `defaultTtl = -1`). */
  async ensureStoreContainers(): Promise<void> {
    for (const [name, spec] of Object.entries(STORE_CONTAINERS) as [
      StoreContainerName,
      StoreContainerSpec,
    ][]) {
      const { container } = await this.database.containers.createIfNotExists({ ...spec, defaultTtl: -1 });
      this.#storeContainers.set(name, container);
    }
  }

  container(name: StoreContainerName): Container {
    const container = this.#storeContainers.get(name);
    if (!container)
      throw new NimBusError(
        NimBusErrorCode.InvalidState,
        `The Cosmos store container '${name}' was not opened.`,
      );
    return container;
  }

  now(): Date {
    return new Date(this.clock.now());
  }

  /**
   * A write sequence that orders documents by write time and, within one millisecond, by write order
   * in this process: `updatedAt` in ms × 1024 + a counter.
   */
  nextSeq(at: Date): number {
    this.#counter = (this.#counter + 1) % 1024;
    return at.getTime() * 1024 + this.#counter;
  }

  /** The endpoint's container, created (TTL on, `defaultTtl = -1`) on the first write. */
  async endpointContainerForWrite(endpointId: string): Promise<Container> {
    const known = this.#endpointContainers.get(endpointId);
    if (known) return known;
    // Concurrent first writes to one endpoint share one creation instead of racing to a 409.
    let creating = this.#creatingContainers.get(endpointId);
    if (creating === undefined) {
      creating = this.#createEndpointContainer(endpointId).finally(() =>
        this.#creatingContainers.delete(endpointId),
      );
      this.#creatingContainers.set(endpointId, creating);
    }
    return creating;
  }

  async #createEndpointContainer(endpointId: string): Promise<Container> {
    const definition = { id: encodeId(endpointId), partitionKey: ENDPOINT_PARTITION_KEY, defaultTtl: -1 };
    let container: Container;
    try {
      ({ container } = await this.database.containers.createIfNotExists(definition));
    } catch (error) {
      // Another process created it between the existence check and the create.
      if (!isCosmosStatus(error, 409)) throw error;
      container = this.database.container(definition.id);
    }
    this.#endpointContainers.set(endpointId, container);
    return container;
  }

  /** The endpoint's container, or null when it was never created (nothing was written there). */
  async endpointContainer(endpointId: string): Promise<Container | null> {
    const known = this.#endpointContainers.get(endpointId);
    if (known) return known;
    if (endpointId === '' || isReservedStoreEndpointId(endpointId)) return null;
    const container = this.database.container(encodeId(endpointId));
    try {
      await container.read();
    } catch (error) {
      if (isCosmosStatus(error, 404)) return null;
      throw error;
    }
    this.#endpointContainers.set(endpointId, container);
    return container;
  }

  /** Ids of every endpoint that has a container. */
  async endpointIds(): Promise<string[]> {
    const { resources } = await this.database.containers.readAll().fetchAll();
    return resources
      .map((c) => decodeURIComponent(c.id))
      .filter((id) => !isReservedStoreEndpointId(id))
      .sort();
  }
}

/** Every result of a parameterised query (the SDK follows continuation tokens). */
export async function queryAll<T>(
  container: Container,
  query: string,
  parameters: SqlParameter[] = [],
): Promise<T[]> {
  const { resources } = await container.items.query<T>({ query, parameters }).fetchAll();
  return resources;
}
