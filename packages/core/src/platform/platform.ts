import type { Endpoint } from './endpoint.js';
import { PlatformDefinitionError } from './errors.js';
import type { EventType } from './event-type.js';

/** A set of endpoints with inverted producer/consumer indexes by event type id. */
export class Platform {
  readonly #endpoints = new Map<string, Endpoint>();
  readonly #eventTypes = new Map<string, EventType>();
  readonly #producers = new Map<string, Endpoint[]>();
  readonly #consumers = new Map<string, Endpoint[]>();

  constructor(endpoints: readonly Endpoint[] = []) {
    for (const endpoint of endpoints) this.addEndpoint(endpoint);
  }

  addEndpoint(endpoint: Endpoint): this {
    if (this.#endpoints.has(endpoint.id)) {
      throw new PlatformDefinitionError(`Endpoint '${endpoint.id}' is already part of the platform.`);
    }
    for (const type of [...endpoint.produces, ...endpoint.consumes]) this.#registerType(type, endpoint);
    this.#endpoints.set(endpoint.id, endpoint);
    for (const type of endpoint.produces) this.#index(this.#producers, type.id, endpoint);
    for (const type of endpoint.consumes) this.#index(this.#consumers, type.id, endpoint);
    return this;
  }

  get endpoints(): readonly Endpoint[] {
    return [...this.#endpoints.values()];
  }

  /** Every event type any endpoint produces or consumes, each once. */
  get eventTypes(): readonly EventType[] {
    return [...this.#eventTypes.values()];
  }

  getEndpoint(id: string): Endpoint | undefined {
    return this.#endpoints.get(id);
  }

  getEventType(id: string): EventType | undefined {
    return this.#eventTypes.get(id);
  }

  getProducers(eventTypeId: string): readonly Endpoint[] {
    return this.#producers.get(eventTypeId) ?? [];
  }

  getConsumers(eventTypeId: string): readonly Endpoint[] {
    return this.#consumers.get(eventTypeId) ?? [];
  }

  #registerType(type: EventType, endpoint: Endpoint): void {
    const known = this.#eventTypes.get(type.id);
    if (known === undefined) {
      this.#eventTypes.set(type.id, type);
    } else if (known !== type) {
      throw new PlatformDefinitionError(
        `Event type id '${type.id}' is defined twice (second definition used by endpoint '${endpoint.id}'); event type ids must be unique.`,
      );
    }
  }

  #index(index: Map<string, Endpoint[]>, eventTypeId: string, endpoint: Endpoint): void {
    const list = index.get(eventTypeId);
    if (list) list.push(endpoint);
    else index.set(eventTypeId, [endpoint]);
  }
}

export function definePlatform(endpoints: readonly Endpoint[]): Platform {
  return new Platform(endpoints);
}
