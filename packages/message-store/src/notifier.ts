import { consoleLogger, type Logger } from '@nimbus/core';
import type { MessageStateChangeNotifier } from './contracts/state-change-notifier.js';

export type StateChange =
  | { readonly kind: 'endpoint'; readonly endpointId: string }
  | { readonly kind: 'heartbeat'; readonly endpointId: string }
  | { readonly kind: 'serviceHealth'; readonly serviceId: string }
  /**
   * Changes may have been missed (a cross-process notifier reconnected or fell behind): re-read
   * everything shown. In-process notifiers never send it.
   */
  | { readonly kind: 'resync' };

export type StateChangeListener = (change: StateChange) => void | Promise<void>;

/**
 * Provider-neutral, in-process notifier: listeners subscribe and are told about every change.
 * A failing listener is logged and does not stop the others (the write it reports is already persisted).
 */
export class InProcessStateChangeNotifier implements MessageStateChangeNotifier {
  readonly #listeners = new Set<StateChangeListener>();
  readonly #logger: Logger;

  constructor(options: { logger?: Logger } = {}) {
    this.#logger = options.logger ?? consoleLogger;
  }

  /** Returns the function that unsubscribes this listener. */
  subscribe(listener: StateChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.unsubscribe(listener);
  }

  unsubscribe(listener: StateChangeListener): void {
    this.#listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  notifyEndpointStateChanged(endpointId: string): Promise<void> {
    return this.#publish({ kind: 'endpoint', endpointId });
  }

  notifyHeartbeatChanged(endpointId: string): Promise<void> {
    return this.#publish({ kind: 'heartbeat', endpointId });
  }

  notifyServiceHealthChanged(serviceId: string): Promise<void> {
    return this.#publish({ kind: 'serviceHealth', serviceId });
  }

  async #publish(change: StateChange): Promise<void> {
    if (change.kind !== 'resync' && changedId(change) === '') return;
    for (const listener of [...this.#listeners]) {
      try {
        await listener(change);
      } catch (error) {
        this.#logger.error({ change, error }, 'A state-change listener failed; other listeners still ran');
      }
    }
  }
}

/** The endpoint or service id a change names (empty for a resync). */
export function changedId(change: StateChange): string {
  if (change.kind === 'resync') return '';
  return change.kind === 'serviceHealth' ? change.serviceId : change.endpointId;
}
