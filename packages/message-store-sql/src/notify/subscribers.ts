import type { Logger } from '@nimbus/core';
import type { StateChange, StateChangeListener } from '@nimbus/message-store';

/** The listeners of one notifier; a failing listener is logged and the others still hear the change. */
export class Subscribers {
  readonly #listeners = new Set<StateChangeListener>();

  constructor(private readonly logger: Logger) {}

  subscribe(listener: StateChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get count(): number {
    return this.#listeners.size;
  }

  async deliver(changes: readonly StateChange[]): Promise<void> {
    for (const change of changes) {
      for (const listener of [...this.#listeners]) {
        try {
          await listener(change);
        } catch (error) {
          this.logger.error({ change, error }, 'A state-change listener failed; other listeners still ran');
        }
      }
    }
  }
}
