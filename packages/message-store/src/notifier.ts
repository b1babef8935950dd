import { consoleLogger, type Logger } from '@nimbus/core';
import {
  changedId,
  type MessageStateChangeNotifier,
  type StateChange,
  type StateChangeListener,
} from './contracts/state-change-notifier.js';

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

  async notify(change: StateChange): Promise<void> {
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
